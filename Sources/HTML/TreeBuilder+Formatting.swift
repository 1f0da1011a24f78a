// § 13.2.4.3 The list of active formatting elements: push with the Noah's Ark clause,
// reconstruct, clear to the last marker.

extension TreeBuilder {
    /// Pushes an element, first removing the earliest of three identical entries after the
    /// last marker (the Noah's Ark clause).
    func pushFormatting(_ element: Int32, _ tag: TagToken) {
        var count = 0
        var earliest = -1
        var i = formatting.count - 1
        while i >= 0 {
            guard case let .element(node, entryTag) = formatting[i] else { break }
            if name(node) == name(element) && namespace(node) == namespace(element)
                && sameAttributes(entryTag.attributes, tag.attributes) {
                count += 1
                earliest = i
            }
            i -= 1
        }
        if count >= 3 { formatting.remove(at: earliest) }
        formatting.append(.element(element, tag))
    }

    private func sameAttributes(_ a: [Attribute], _ b: [Attribute]) -> Bool {
        guard a.count == b.count else { return false }
        for attribute in a {
            guard b.contains(where: { $0.name == attribute.name && $0.value == attribute.value && $0.namespace == attribute.namespace }) else { return false }
        }
        return true
    }

    func pushMarker() { formatting.append(.marker) }

    /// § 13.2.4.3 "Reconstruct the active formatting elements".
    func reconstructFormatting() {
        guard case let .element(last, _)? = formatting.last, !isOnStack(last) else { return }
        var i = formatting.count - 1
        // Rewind to the entry after the last marker or element that is on the stack.
        while i > 0 {
            let previous = formatting[i - 1]
            if case let .element(node, _) = previous, !isOnStack(node) {
                i -= 1
                continue
            }
            break
        }
        // Advance: create each entry's element again.
        while i < formatting.count {
            guard case let .element(_, tag) = formatting[i] else { i += 1; continue }
            let element = insertElement(tag)
            formatting[i] = .element(element, tag)
            i += 1
        }
    }

    /// § 13.2.4.3 "Clear the list of active formatting elements up to the last marker".
    func clearFormattingToLastMarker() {
        while let entry = formatting.popLast() {
            if case .marker = entry { return }
        }
    }

    /// Index of the formatting entry for `node`.
    func formattingIndex(of node: Int32) -> Int? {
        formatting.lastIndex { if case let .element(n, _) = $0 { return n == node } else { return false } }
    }

    /// The last element with the HTML tag id after the last marker, if any.
    func formattingElementAfterLastMarker(_ tag: Int32) -> Int32? {
        var i = formatting.count - 1
        while i >= 0 {
            guard case let .element(node, _) = formatting[i] else { return nil }
            if isHTML(node, tag) { return node }
            i -= 1
        }
        return nil
    }

    func removeFormatting(_ node: Int32) {
        if let i = formattingIndex(of: node) { formatting.remove(at: i) }
    }
}
