import HTML

/// A table used for layout is served as the column it lays out.
extension ReaderColumn {
    /// Elements that make a cell a page's column rather than a datum.
    static let cellBlocks: Set<String> = [
        "p", "ul", "ol", "dl", "div", "table", "blockquote", "pre", "figure", "h1", "h2", "h3", "h4", "h5", "h6",
    ]

    /// Replaces each layout table below `node` with its cells, in order, each cell a `div`
    /// (which `unwrap` then unwraps when it holds only blocks). A layout table has no header
    /// cell and no caption, lays its cells out in one row or one column, and has a cell holding
    /// paragraphs, lists or other blocks: a page's columns (an old page's text beside its
    /// notes), not data. On a phone the reader page shows one column anyway, and trafilatura,
    /// which reads a table as rows of cell text, keeps the lists and paragraphs it would drop.
    /// A table of data keeps its rows, even with paragraphs in its cells.
    @discardableResult
    static func unwrapLayoutTables(in node: Node) -> Bool {
        var changed = false
        // Innermost first: a layout table inside a cell is unwrapped before its container is judged.
        for table in node.descendantElements(named: ["table"]).reversed() where isLayout(table) {
            guard let parent = table.parent else { continue }
            moveCells(of: table, before: table, in: parent)
            table.remove()
            changed = true
        }
        return changed
    }

    /// Moves the cells below `node` (a table or one of its row groups or rows) before
    /// `reference`, each as a `div`, with the text between them (the whitespace a page's markup
    /// puts between cells), in order; a `colgroup` or `caption` goes.
    static func moveCells(of node: Node, before reference: Node, in parent: Node) {
        for child in node.childNodes {
            if child.isText {
                _ = parent.insertBefore(child, reference)
            } else if child.isElement, ["tbody", "thead", "tfoot", "tr"].contains(child.localName) {
                moveCells(of: child, before: reference, in: parent)
            } else if child.isElement, child.localName == "td" {
                let box = child.document.createElement("div")
                for grandchild in child.childNodes { _ = box.appendChild(grandchild) }
                _ = parent.insertBefore(box, reference)
            }
        }
    }

    static func isLayout(_ table: Node) -> Bool {
        let rows = table.descendantElements(named: ["tr"]).filter { nearestTable($0) == table }
        guard !table.descendantElements(named: ["th", "caption"]).contains(where: { nearestTable($0) == table }) else { return false }
        let cellsPerRow = rows.map { row in row.childNodes.filter { $0.isElement && $0.localName == "td" }.count }
        guard rows.count == 1 || cellsPerRow.allSatisfy({ $0 <= 1 }) else { return false }
        return ownCells(of: table).contains { cell in
            cell.childNodes.contains { $0.isElement && cellBlocks.contains($0.localName) }
        }
    }

    /// The `td`s of `table`'s own rows (not of a table nested in one of its cells), in order.
    static func ownCells(of table: Node) -> [Node] {
        table.descendantElements(named: ["td"]).filter { nearestTable($0) == table }
    }

    static func nearestTable(_ node: Node) -> Node? {
        var ancestor = node.parent
        while let current = ancestor, !(current.isElement && current.localName == "table") { ancestor = current.parent }
        return ancestor
    }
}
