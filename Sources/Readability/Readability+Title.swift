// _getArticleTitle: the <title>, with site names and separators trimmed off.
import HTML

extension Readability {
    /// ` [\|\-–—\\\/>»] ` separator characters (the corpus's Readability.js also splits on
    /// en and em dashes).
    static func isTitleSeparator(_ c: Unicode.Scalar) -> Bool {
        c == "|" || c == "-" || c == "\u{2013}" || c == "\u{2014}" || c == "\\" || c == "/" || c == ">" || c == "»"
    }

    /// The hierarchical ones: `[\\\/>»]`.
    static func isHierarchicalSeparator(_ c: Unicode.Scalar) -> Bool {
        c == "\\" || c == "/" || c == ">" || c == "»"
    }

    /// Start offsets (in scalars) of non-overlapping ` X ` matches, X a separator.
    static func separatorMatches(_ s: [Unicode.Scalar], hierarchicalOnly: Bool = false) -> [Int] {
        var found: [Int] = []
        var i = 0
        while i + 2 < s.count {
            let sep = hierarchicalOnly ? isHierarchicalSeparator(s[i + 1]) : isTitleSeparator(s[i + 1])
            if s[i] == " " && sep && s[i + 2] == " " {
                found.append(i)
                i += 3
            } else {
                i += 1
            }
        }
        return found
    }

    func getArticleTitle() -> String {
        let origTitle = JSString.trim(doc.title)
        var curTitle = origTitle
        var titleHadHierarchicalSeparators = false
        let scalars = Array(origTitle.unicodeScalars)

        let separators = Readability.separatorMatches(scalars)
        if let last = separators.last {
            titleHadHierarchicalSeparators = !Readability.separatorMatches(scalars, hierarchicalOnly: true).isEmpty
            curTitle = String(String.UnicodeScalarView(scalars[..<last]))
            if JSString.wordCount(curTitle) < 3 {
                // origTitle.replace(/^[^\|\-\\\/>»]*[\|\-\\\/>»]/gi, "")
                if let first = scalars.firstIndex(where: Readability.isTitleSeparator) {
                    curTitle = String(String.UnicodeScalarView(scalars[(first + 1)...]))
                }
            }
        } else if origTitle.containsBytes(": ") {
            let trimmedTitle = JSString.trim(curTitle)
            let match = elements(doc.node, "h1", "h2").contains { JSString.trim($0.textContent) == trimmedTitle }
            if !match {
                let lastColon = scalars.lastIndex(of: ":") ?? -1
                curTitle = String(String.UnicodeScalarView(scalars[(lastColon + 1)...]))
                if JSString.wordCount(curTitle) < 3 {
                    let firstColon = scalars.firstIndex(of: ":") ?? -1
                    curTitle = String(String.UnicodeScalarView(scalars[(firstColon + 1)...]))
                } else if let firstColon = scalars.firstIndex(of: ":"),
                          JSString.wordCount(String(String.UnicodeScalarView(scalars[..<firstColon]))) > 5 {
                    curTitle = origTitle
                }
            }
        } else if JSString.length(curTitle) > 150 || JSString.length(curTitle) < 15 {
            let hOnes = elements(doc.node, "h1")
            if hOnes.count == 1 { curTitle = getInnerText(hOnes[0]) }
        }

        curTitle = JSString.normalize(JSString.trim(curTitle))
        let curTitleWordCount = JSString.wordCount(curTitle)
        if curTitleWordCount <= 4 {
            var stripped = String.UnicodeScalarView()
            for c in origTitle.unicodeScalars where !Readability.isTitleSeparator(c) { stripped.append(c) }
            if !titleHadHierarchicalSeparators || curTitleWordCount != JSString.wordCount(String(stripped)) - 1 {
                curTitle = origTitle
            }
        }
        return curTitle
    }
}
