import HTML

/// Turns submitted article HTML into markup that is safe to serve: parse it as a fragment in a
/// `<div>` with our HTML parser, then write back only what `SanitizerPolicy` allows. The output
/// is produced by our own writer (never by copying input), so it contains only allowed tags,
/// allowed attributes with escaped values, and escaped text: no raw-text elements, no foreign
/// content, no comments, hence nothing a browser could parse differently.
package enum HTMLSanitizer {
    /// Rounds after which re-sanitizing has always settled (the fuzz harness checks 4).
    static let maxRounds = 4

    /// The sanitized markup, which sanitizes to itself. The parser builds trees markup cannot
    /// express (an `a` in an `a` from the adoption agency, or once a `marquee` between them is
    /// unwrapped; an `li` in an `li`), which read back differently (`RoundTrip`); such output is
    /// sanitized again until it settles, so a stored article does not change when saved again.
    package static func sanitize(_ html: String) -> String { sanitizeCounting(html).html }

    /// `sanitize`, and what the first pass removed by kind (`script`, `iframe`, `svg`, `mathml`, …).
    /// `fastPath: false` skips `StreamingSanitizer` (for the test that compares the two paths).
    static func sanitizeCounting(_ html: String, fastPath: Bool = true) -> (html: String, removed: [String: Int]) {
        if fastPath, let written = StreamingSanitizer.sanitize(html) { return (written, [:]) }
        var removals = Removals()
        var (output, settled) = sanitizeOnce(html, removed: &removals)
        if settled { return (output, removals.counts) }
        for _ in 1..<maxRounds {
            var ignored = Removals()
            let (again, _) = sanitizeOnce(output, removed: &ignored)
            if again == output { break }
            output = again
        }
        return (output, removals.counts)
    }

    /// Whether one pass is all `html` takes, and whether the fast path takes it (for the
    /// benchmark's report).
    package static func settlesInOnePass(_ html: String) -> Bool { sanitizeOnce(html).settled }
    package static func takesFastPath(_ html: String) -> Bool { StreamingSanitizer.sanitize(html) != nil }

    /// One pass; `settled` tells that the output reads back as the tree it was written from
    /// (nothing was unwrapped and `RoundTrip` saw nothing the parser would move).
    static func sanitizeOnce(_ html: String) -> (output: String, settled: Bool) {
        var ignored = Removals()
        return sanitizeOnce(html, removed: &ignored)
    }

    static func sanitizeOnce(_ html: String, removed: inout Removals) -> (output: String, settled: Bool) {
        let (document, fragment) = Document.parseFragment(html, context: "div")
        var writer = SafeHTMLWriter(capacity: html.utf8.count)
        var settled = true
        var open: [Int32] = []      // the kept elements the writer has open, outermost first (ids)
        // Iterative walk: deep input cannot overflow the stack. Each entered element pushes the
        // end tag to write when we climb back out of it (nil when its tag was unwrapped).
        var closers: [String?] = []
        var next = fragment.firstChild
        while let node = next {
            switch node.kind {
            case .text:
                let text = node.data
                if settled && RoundTrip.textMoves(text, open: open) { settled = false }
                writer.text(text)
            case .element:
                let entered = visit(node, &writer, open: open, settled: &settled, removed: &removed)
                if let entered, let child = node.firstChild {
                    closers.append(entered.closer)
                    if entered.closer != nil { open.append(entered.id) }
                    next = child
                    continue
                }
            default:
                break   // comments and doctypes are dropped
            }
            // Leave this node: next sibling, or climb, closing what we entered.
            var current = node
            next = nil
            while true {
                if let sibling = current.nextSibling { next = sibling; break }
                guard let parent = current.parent, parent != fragment, let closer = closers.popLast() else { break }
                if let closer {
                    writer.end(closer)
                    open.removeLast()
                }
                current = parent
            }
        }
        withExtendedLifetime(document) {}
        return (writer.output, settled)
    }

    /// How to leave an entered element: the end tag to write (nil when its tag was unwrapped)
    /// and the element's interned id, for the stack of written elements.
    struct Entered {
        let closer: String?
        var id: Int32 = -2
    }

    /// Writes the start of `element` if kept. Returns how to leave it when its children should
    /// be visited, nil when it was dropped (or is void, or empty and already closed).
    private static func visit(_ element: Node, _ writer: inout SafeHTMLWriter, open: [Int32], settled: inout Bool,
                              removed: inout Removals) -> Entered? {
        guard element.namespace == .html else {
            return visitForeign(element, &writer, open: open, settled: &settled, removed: &removed)
        }
        let name = element.localName
        let id = element.localNameID
        if open.contains(SanitizerNames.math) {
            // HTML inside MathML (through mtext and friends) would not read back: text only.
            settled = false
            return SanitizerNames.action(id, name: name) == .drop ? nil : Entered(closer: nil)
        }
        if SanitizerNames.isEmbed(id), replaceEmbed(element, &writer, open: open, settled: &settled, removed: &removed) { return nil }
        switch SanitizerNames.action(id, name: name) {
        case .drop:
            removed.add(name)
            return nil
        case .unwrap:
            settled = false
            return Entered(closer: nil)
        case .keep:
            if settled && RoundTrip.startTagMoves(id, open: open) { settled = false }
            writer.open(name)
            for attribute in element.attributes where attribute.namespace == nil {
                if let value = SanitizerPolicy.attributeValue(element: id, name: attribute.name, value: attribute.value) {
                    writer.attribute(attribute.name, value)
                }
            }
            if id == SanitizerNames.audio || id == SanitizerNames.video { writer.attribute("controls", "") }
            writer.close(name)
            if HTMLElements.isVoid(id) { return nil }
            if element.firstChild == nil {
                writer.end(name)
                return nil
            }
            return Entered(closer: name, id: id)
        }
    }
}
