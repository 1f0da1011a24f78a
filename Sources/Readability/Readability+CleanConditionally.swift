// _cleanConditionally and data-table detection (_markDataTables, _getRowAndColumnCount).
import HTML

extension Readability {
    /// `_markDataTables`: data tables (as opposed to layout tables) are kept by the cleaners.
    func markDataTables(_ root: Node) {
        for table in elements(root, "table") {
            dataTables[table.index] = isDataTable(table)
        }
    }

    private func isDataTable(_ table: Node) -> Bool {
        if table.getAttribute("role") == "presentation" { return false }
        if table.getAttribute("datatable") == "0" { return false }
        if let summary = table.getAttribute("summary"), !summary.isEmpty { return true }
        if let caption = elements(table, "caption").first, caption.firstChild != nil { return true }
        if countElements(table, "col", "colgroup", "tfoot", "thead", "th") > 0 { return true }
        if !elements(table, "table").isEmpty { return false }
        let (rows, columns) = getRowAndColumnCount(table)
        if columns == 1 || rows == 1 { return false }
        if rows >= 10 || columns > 4 { return true }
        return rows * columns > 10
    }

    /// `_getRowAndColumnCount`.
    func getRowAndColumnCount(_ table: Node) -> (rows: Int, columns: Int) {
        var rows = 0
        var columns = 0
        for tr in elements(table, "tr") {
            rows += Readability.parseSpan(tr.getAttribute("rowspan"))
            var columnsInThisRow = 0
            for cell in elements(tr, "td") {
                columnsInThisRow += Readability.parseSpan(cell.getAttribute("colspan"))
            }
            columns = max(columns, columnsInThisRow)
        }
        return (rows, columns)
    }

    /// `parseInt(value, 10) || 1` for rowspan/colspan.
    static func parseSpan(_ value: String?) -> Int {
        guard let value else { return 1 }
        var s = Substring(JSString.trim(value))
        var negative = false
        if s.first == "-" { negative = true; s = s.dropFirst() } else if s.first == "+" { s = s.dropFirst() }
        let digits = s.prefix(while: { $0.isASCII && $0.isNumber })
        guard !digits.isEmpty, let n = Int(digits.prefix(9)) else { return 1 }
        if n == 0 { return 1 }
        return negative ? -n : n
    }

    func isMarkedDataTable(_ node: Node) -> Bool { dataTables[node.index] ?? false }

    /// `_cleanConditionally`: removes `tag` elements that look like junk.
    func cleanConditionally(_ e: Node, _ tag: String) {
        guard flagIsActive(.cleanConditionally) else { return }
        withTextLengthCache {
            removeNodes(elements(e, tag)) { self.shouldCleanConditionally($0, tag) }
        }
    }

    private func shouldCleanConditionally(_ node: Node, _ tag: String) -> Bool {
        let census = CleanCensus(node, pieces: textPieces)
        rememberTextLength(census.text.stats.length, of: node)
        var isList = tag == "ul" || tag == "ol"
        if !isList {
            var listLength = 0
            for list in census.lists { listLength += innerTextLength(at: list, in: node.document) }
            // JS: listLength / 0 is NaN or Infinity; only Infinity passes "> 0.9".
            let nodeLength = innerTextLength(node)
            isList = nodeLength == 0 ? listLength > 0 : Double(listLength) / Double(nodeLength) > 0.9
        }
        if tag == "table" && isMarkedDataTable(node) { return false }
        if hasAncestorTag(node, "table", maxDepth: -1, filter: isMarkedDataTable) { return false }
        if hasAncestorTag(node, "code") { return false }
        if census.tables.contains(where: { dataTables[$0] ?? false }) { return false }

        let weight = getClassWeight(node)
        if weight < 0 { return true }
        if census.text.stats.asciiCommas >= 10 { return false }

        let p = census.p
        let img = census.img
        let li = census.li - 100
        let input = census.input
        let headingDensity = self.textDensity(node, of: census.headings)

        var embedCount = 0
        for embed in census.embeds {
            let allowed = node.document.withAttributes(at: embed) { list in
                list.contains { options.allowedVideoRegex($0.value) }
            }
            if allowed { return false }
            embedCount += 1
        }

        let contentLength = innerTextLength(node)
        // Only short texts can be nothing but an ad or loading word.
        if contentLength <= 16 {
            let innerText = getInnerText(node)
            if Matching.isAdWords(innerText) || Matching.isLoadingWords(innerText) { return true }
        }

        let linkDensity = self.linkDensity(node, links: census.links)
        let textDensity = self.textDensity(node, of: census.densityNodes)
        let isFigureChild = hasAncestorTag(node, "figure")

        var haveToRemove = false
        if !isFigureChild && img > 1 && Double(p) / Double(img) < 0.5 { haveToRemove = true }
        if !isList && li > p { haveToRemove = true }
        if input > p / 3 { haveToRemove = true }
        if !isList && !isFigureChild && headingDensity < 0.9 && contentLength < 25 && (img == 0 || img > 2) && linkDensity > 0 {
            haveToRemove = true
        }
        if !isList && weight < 25 && linkDensity > 0.2 + options.linkDensityModifier { haveToRemove = true }
        if weight >= 25 && linkDensity > 0.5 + options.linkDensityModifier { haveToRemove = true }
        if (embedCount == 1 && contentLength < 75) || embedCount > 1 { haveToRemove = true }
        if img == 0 && textDensity == 0 { haveToRemove = true }

        // Simple lists of images may stay.
        if isList && haveToRemove {
            for child in node.children where child.childElementCount > 1 { return haveToRemove }
            if img == census.li { return false }
        }
        return haveToRemove
    }
}
