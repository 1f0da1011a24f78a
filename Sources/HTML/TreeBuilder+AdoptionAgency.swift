// § 13.2.6.4.7 The adoption agency algorithm (for formatting end tags in "in body").

extension TreeBuilder {
    /// Returns false when the caller should "act as described in the any other end tag entry".
    func adoptionAgency(_ tag: Int32) -> Bool {
        // Step 2: current node is the subject and not in the list: pop it and return.
        let current = currentNode
        if isHTML(current, tag) && formattingIndex(of: current) == nil {
            stack.removeLast()
            return true
        }
        // Steps 3-4: the outer loop, at most 8 times.
        for _ in 0..<8 {
            // Step 4.3: the formatting element.
            guard let formattingElement = formattingElementAfterLastMarker(tag) else { return false }
            // Step 4.4: not on the stack: parse error; remove from the list.
            guard let formattingStackIndex = stack.lastIndex(of: formattingElement) else {
                removeFormatting(formattingElement)
                return true
            }
            // Step 4.5: on the stack but not in scope: parse error; ignore.
            if !nodeInScope(formattingElement) { return true }
            // Step 4.7: the furthest block.
            var furthestBlockIndex = -1
            var i = formattingStackIndex + 1
            while i < stack.count {
                if isSpecial(stack[i]) { furthestBlockIndex = i; break }
                i += 1
            }
            // Step 4.8: no furthest block: pop through the formatting element.
            if furthestBlockIndex < 0 {
                stack.removeSubrange(formattingStackIndex...)
                removeFormatting(formattingElement)
                return true
            }
            let furthestBlock = stack[furthestBlockIndex]
            // Step 4.9: the common ancestor.
            let commonAncestor = stack[formattingStackIndex - 1]
            // Step 4.10: the bookmark.
            guard var bookmark = formattingIndex(of: formattingElement) else { return true }
            // Step 4.11-4.13: the inner loop.
            var node = furthestBlock
            var nodeIndex = furthestBlockIndex
            var lastNode = furthestBlock
            var innerCounter = 0
            while true {
                innerCounter += 1
                nodeIndex -= 1
                node = stack[nodeIndex]
                if node == formattingElement { break }
                var entryIndex = formattingIndex(of: node)
                if innerCounter > 3, let e = entryIndex {
                    formatting.remove(at: e)
                    if e < bookmark { bookmark -= 1 }
                    entryIndex = nil
                }
                guard let entry = entryIndex else {
                    stack.remove(at: nodeIndex)
                    continue
                }
                // Replace the entry and the stack slot with a fresh copy of the element.
                guard case let .element(_, entryTag) = formatting[entry] else { break }
                let copy = createElement(for: entryTag, in: .html)
                formatting[entry] = .element(copy, entryTag)
                stack[nodeIndex] = copy
                node = copy
                if lastNode == furthestBlock { bookmark = entry + 1 }
                document.unlink(lastNode)
                document.link(lastNode, appendTo: node)
                lastNode = node
            }
            // Step 4.14: insert lastNode at the appropriate place for the common ancestor.
            document.unlink(lastNode)
            let (parent, before) = appropriatePlace(overrideTarget: commonAncestor)
            document.link(lastNode, into: parent, before: before)
            // Steps 4.15-4.17: a new formatting element takes the furthest block's children.
            guard case let .element(_, formattingTag)? = formattingIndex(of: formattingElement).map({ formatting[$0] }) else { return true }
            let replacement = createElement(for: formattingTag, in: .html)
            document.moveChildren(of: furthestBlock, to: replacement)
            document.link(replacement, appendTo: furthestBlock)
            // Step 4.18: move the entry to the bookmark.
            if let old = formattingIndex(of: formattingElement) {
                formatting.remove(at: old)
                if old < bookmark { bookmark -= 1 }
            }
            formatting.insert(.element(replacement, formattingTag), at: min(bookmark, formatting.count))
            // Step 4.19: the stack: remove the old one, insert below the furthest block.
            removeFromStack(formattingElement)
            if let fb = stack.lastIndex(of: furthestBlock) {
                stack.insert(replacement, at: fb + 1)
            }
        }
        return true
    }
}
