// The page as it was parsed, before Readability changes it (it removes <noscript>, unlikely
// candidates and hidden nodes, and moves its candidate's nodes): the text mass and link text of
// every element from one walk, and the containers a second strategy can choose from.
//   named     containers that call themselves the body (itemprop=articleBody, entry-content, …)
//   semantic  <main>, role=main, <article>
//   repeated  a parent whose children repeat one structure that each hold text (forum posts,
//             comments, listing items): the parent keeps all of them
//   page      the body itself, with its count of headings (a page of many headed sections)
//   prose     the innermost box holding the page's prose (MainSpan's path from the body)
import HTML

struct Survey {
    let table: TextTable
    /// The thresholds the page is surveyed with (and the alternatives found in it measured by).
    let tuning: Tuning
    /// Elements of the body in document order, skipping scripts, styles and templates.
    var elements: TextTable.Elements { table.elements }
    private(set) var named: [Node] = []
    private(set) var semantic: [Node] = []
    /// The body (nil: the document has none).
    private(set) var body: Node?
    /// Headings (`h1`–`h6`) in the body.
    private(set) var headings = 0
    /// Modal boxes over the page (cookie consent, sign-in and newsletter prompts): `dialog`
    /// elements, ARIA dialog roles and `aria-modal`, each under half the body's text.
    private(set) var dialogs: [Node] = []
    /// Text inside `nav`, `header`, `footer`, `aside`, `form`, `menu` and `dialog` elements.
    private(set) var furnitureText = 0
    /// The page's footers: the outermost `footer` elements, and `role=contentinfo` boxes
    /// under half the body's text.
    private(set) var footers: [Node] = []
    /// `<noscript>` boxes holding half the body's text or more: the page as a browser without
    /// scripts shows it (the rest is a script's menu), which Readability would drop.
    private(set) var scriptlessPages: [Node] = []
    /// Closed tab and accordion panels (`Panels`).
    private(set) var panels: [Node] = []
    /// The innermost box holding the page's prose (`MainSpan`'s path from the body, with the
    /// text of navigation, headers, footers, asides and forms left out).
    private(set) var proseBox: Node?

    static let repeatable = NameSet(["div", "li", "article", "section", "tr", "dd", "details", "blockquote"])
    static let sectioning = NameSet(["main", "article"])
    static let headingNames = NameSet(["h1", "h2", "h3", "h4", "h5", "h6"])

    init(_ document: Document, tuning: Tuning) {
        self.tuning = tuning
        guard let body = document.body else {
            table = TextTable(document.node)
            return
        }
        table = TextTable(body, masses: true, prose: .init(furniture: Survey.furniture, run: tuning.proseRun))
        self.body = body
        let bodyText = table.length(body)
        var found = Panels()
        // By index: most elements have no attributes and no role here, and get no handle (a
        // handle holds its document, a reference count apiece).
        let doc = document
        for index in table.order {
            let length = Int(table.length(at: index))
            let name = doc.nameID(at: index)
            if Survey.headingNames.contains(id: name) { headings += 1 }
            if name == Survey.noscript, SurveyRules.isScriptlessPage(length: length, bodyText: bodyText, tuning) { scriptlessPages.append(doc.node(at: index)) }
            // The attributes read in place, once for all the questions below.
            doc.withAttributes(at: index) { list in
                let attributes = list.isEmpty ? nil : ReadAttributes(list)
                if let attributes { found.note(index, in: doc, attributes) }
                if SurveyRules.isOverlay(length: length, bodyText: bodyText, tuning), Survey.isDialog(name: name, attributes) { dialogs.append(doc.node(at: index)) }
                // The outermost furniture elements' text (only they walk up to check).
                if Survey.furniture.contains(id: name), !Survey.hasFurnitureAncestor(doc.node(at: index), below: body) {
                    furnitureText += length
                    if name == Survey.footer, length > 0 { footers.append(doc.node(at: index)) }
                } else if let role = attributes?.role, SurveyRules.isFooterBox(length: length, bodyText: bodyText, tuning),
                          role.lowercased() == "contentinfo", !Survey.hasFurnitureAncestor(doc.node(at: index), below: body) {
                    footers.append(doc.node(at: index))
                }
                // Containers of the second strategy (not the body itself), from the same
                // reading of the attributes.
                if index != body.index, SurveyRules.isContainer(length: length, tuning) {
                    if Survey.sectioning.contains(id: name) || attributes?.role?.lowercased() == "main" {
                        semantic.append(doc.node(at: index))
                    } else if let prop = attributes?.itemprop, prop.lowercased() == "articlebody" {
                        named.append(doc.node(at: index))
                    } else if let attributes, Vocabulary.Names(className: attributes.className, id: attributes.id).namesContent() {
                        named.append(doc.node(at: index))
                    }
                }
            }
        }
        panels = found.panels(below: body, wrappers: tuning.panelWrappers)
        proseBox = MainSpan(root: body, table: table, tuning: tuning).innermost
    }

    func textLength(_ node: Node) -> Int { table.length(node) }

    static let footer = Document.knownNameID("footer")!
    static let noscript = Document.knownNameID("noscript")!
    static let dialogRoles: Set<String> = ["dialog", "alertdialog"]
    static let dialogElement = Document.knownNameID("dialog")!

    /// A modal box: a `dialog`, a dialog role or `aria-modal="true"`; from an element's name
    /// and attributes as read (nil: none).
    static func isDialog(name: Int32, _ attributes: ReadAttributes?) -> Bool {
        if name == dialogElement { return true }
        guard let attributes else { return false }
        if let role = attributes.role, dialogRoles.contains(role.lowercased()) { return true }
        return attributes.ariaModal?.lowercased() == "true"
    }

    /// `isDialog` of an element.
    static func isDialog(_ e: Node) -> Bool {
        e.document.withAttributes(at: e.index) { isDialog(name: e.localNameID, $0.isEmpty ? nil : ReadAttributes($0)) }
    }

    static func hasFurnitureAncestor(_ node: Node, below root: Node) -> Bool {
        furniture.containsAncestor(of: node, below: root)
    }

    func linkDensity(_ node: Node) -> Double { table.linkDensity(node) }

    /// Text outside links: what a container is worth.
    func mass(_ node: Node) -> Double { Double(textLength(node)) * (1 - linkDensity(node)) }

    /// The best content-named container: the most text outside links, then the innermost
    /// named container that still holds nine tenths of it.
    func bestNamed() -> Node? {
        var best: Node?
        for n in named where SurveyRules.isNamedContainer(length: textLength(n), linkDensity: linkDensity(n), tuning) {
            if best == nil || mass(n) > mass(best!) { best = n }
        }
        guard var chosen = best else { return nil }
        for n in named where n != chosen && chosen.contains(n) && SurveyRules.standsForOuter(innerMass: mass(n), outerMass: mass(chosen), tuning)
            && linkDensity(n) < tuning.containerLinkDensity {
            if textLength(n) < textLength(chosen) { chosen = n }
        }
        return chosen
    }

    /// The <main>/<article>/role=main element with the most text outside links, preferring an
    /// inner one that holds nine tenths of it.
    func bestSemantic() -> Node? {
        var best: Node?
        for n in semantic where SurveyRules.isContainer(length: textLength(n), tuning) {
            if best == nil || mass(n) > mass(best!) { best = n }
        }
        guard var chosen = best else { return nil }
        for n in semantic where n != chosen && chosen.contains(n) && SurveyRules.standsForOuter(innerMass: mass(n), outerMass: mass(chosen), tuning) {
            if textLength(n) < textLength(chosen) { chosen = n }
        }
        return chosen
    }
}
