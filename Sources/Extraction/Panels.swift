// Closed disclosure panels: the other tabs of a product's details, the answers of a FAQ, the
// folds of an accordion. A page hides them (aria-hidden, the hidden attribute, display:none)
// until the reader opens them, and Readability drops hidden nodes before it scores the page.
// A hidden box is a panel when the page ties it to a control: its id is named by another
// element's aria-controls and it is labelled (aria-labelledby), is a tab panel or region, or is
// named accordion; or it is a tab panel or region labelled by its tab. A panel shown in a
// hidden wrapper (its parent or grandparent: a collapse box) opens with it. The survey notes them
// while it walks the page, and they are opened before the alternatives are copied and before
// Readability runs.
import HTML

struct Panels {
    /// Ids named by `aria-controls` anywhere in the page.
    private var controlled: Set<String> = []
    /// Boxes that may be panels (hidden, or inside a hidden wrapper).
    private var hidden: [(node: Node, id: String, panel: Bool, hides: Bool)] = []

    static let panelRoles: Set<String> = ["tabpanel", "region"]
    static let accordionWords = Vocabulary.Words(["accordion"])

    /// Notes an element of the page (in document order) with its attributes read (the survey
    /// reads them once for all its questions; an element with none is no panel).
    mutating func note(_ index: Int32, in document: Document, _ attributes: ReadAttributes) {
        // Most elements have a class and nothing this reads: no string is copied for them.
        guard attributes.hasID || attributes.hasRole || attributes.hasControls else { return }
        if let controls = attributes.controls {
            for token in controls.split(separator: " ") { controlled.insert(String(token)) }
        }
        let id = attributes.id, role = attributes.role, labelled = attributes.labelled
        let panelRole = role.map { Panels.panelRoles.contains($0.lowercased()) } ?? false
        // Most elements can be no panel: they are passed over before their names are read.
        guard panelRole || !id.isEmpty else { return }
        var hides = attributes.hidden || attributes.ariaHidden == "true"
        let names = Vocabulary.Names(className: attributes.className, id: id)
        let panel: Bool
        if panelRole && labelled {
            panel = true
        } else if !id.isEmpty, labelled || panelRole || names.matches(Panels.accordionWords) {
            panel = false
        } else {
            return
        }
        // Menus, pop-ups and modal boxes are hidden furniture, whatever controls them.
        if names.matches(Vocabulary.boilerplateWords) { return }
        if let style = attributes.style, Classifier.isHiddenByStyle(style) { hides = true }
        hidden.append((document.node(at: index), id, panel, hides))
    }

    /// The panels among the hidden boxes noted, in document order: not inside furniture (a
    /// pop-up's tabs, a footer's folded menus). Opening them before Readability, which drops
    /// hidden nodes, took wcxb-dev 0.8558 → 0.8588 (service 0.810 → 0.820, documentation 0.905 →
    /// 0.914; 26 pages up, 7 down); trafilatura-eval unchanged.
    /// `wrappers`: how many hidden wrappers up a shown panel opens (`Tuning.panelWrappers`).
    func panels(below body: Node, wrappers levels: Int) -> [Node] {
        var out: [Node] = []
        for h in hidden where h.panel || controlled.contains(h.id) {
            // A shown panel in a hidden wrapper (a collapse box around an accordion's panel).
            var wrappers: [Node] = []
            var n = h.node.parent
            for _ in 0..<levels {
                guard let w = n, w != body, Panels.hides(w) else { break }
                wrappers.append(w)
                n = w.parent
            }
            guard h.hides || !wrappers.isEmpty, !Panels.inFurniture(wrappers.last ?? h.node, below: body) else { continue }
            if h.hides { out.append(h.node) }
            out += wrappers
        }
        return out
    }

    /// Hidden by `aria-hidden`, the `hidden` attribute or an inline style.
    static func hides(_ node: Node) -> Bool {
        if node.attributes.isEmpty { return false }
        return node.getAttribute("aria-hidden") == "true" || node.hasAttribute("hidden") || Classifier.isHiddenByStyle(node.getAttribute("style"))
    }

    static let furniture = NameSet(["nav", "aside", "footer", "header", "form", "menu", "dialog"])

    /// Whether an ancestor below `body` is a furniture element, named as furniture, or a
    /// pop-up (`popover`, shown only on demand).
    static func inFurniture(_ node: Node, below body: Node) -> Bool {
        var n = node.parent
        while let a = n, a != body {
            if furniture.contains(a) { return true }
            if !a.attributes.isEmpty {
                if a.hasAttribute("popover") || Vocabulary.Names(className: a.className, id: "").matches(Vocabulary.boilerplateWords) { return true }
            }
            n = a.parent
        }
        return false
    }

    /// Shows a panel: the attributes and inline style that hid it are removed.
    static func open(_ node: Node) {
        node.removeAttribute("aria-hidden")
        node.removeAttribute("hidden")
        if Classifier.isHiddenByStyle(node.getAttribute("style")) { node.removeAttribute("style") }
    }
}
