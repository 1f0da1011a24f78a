import Foundation
@testable import HTML

/// One html5lib tree-construction case (`#data`, `#document-fragment`, `#script-*`, `#document`).
struct TreeConstructionCase {
    var file: String
    var data: String
    var fragmentContext: String?
    /// nil: run both ways.
    var scripting: Bool?
    var expected: String

    /// Parses a `.dat` file into cases.
    static func load(_ url: URL) -> [TreeConstructionCase] {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        let file = url.lastPathComponent
        var cases: [TreeConstructionCase] = []
        var blocks = text.components(separatedBy: "\n#data\n")
        if blocks.first?.hasPrefix("#data\n") == true { blocks[0].removeFirst("#data\n".count) }
        for block in blocks where !block.isEmpty {
            var sections: [String: String] = [:]
            var current = "#data"
            var lines: [String] = []
            for line in block.components(separatedBy: "\n") {
                if line.hasPrefix("#") && ["#errors", "#new-errors", "#document-fragment", "#script-off", "#script-on", "#document"].contains(line) {
                    sections[current] = lines.joined(separator: "\n")
                    current = line
                    lines = []
                } else {
                    lines.append(line)
                }
            }
            sections[current] = lines.joined(separator: "\n")
            guard let data = sections["#data"], var expected = sections["#document"] else { continue }
            while expected.hasSuffix("\n") { expected.removeLast() }
            var scripting: Bool?
            if sections["#script-on"] != nil { scripting = true }
            if sections["#script-off"] != nil { scripting = false }
            let context = sections["#document-fragment"].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            cases.append(TreeConstructionCase(file: file, data: data, fragmentContext: context, scripting: scripting, expected: expected))
        }
        return cases
    }

    /// The tree our parser builds, in html5lib format.
    func run(scripting: Bool) -> String {
        let options = ParseOptions(scripting: scripting)
        if let context = fragmentContext {
            let (document, fragment) = Document.parseFragment(data, context: context, options: options)
            return withExtendedLifetime(document) { dumpTree(fragment) }
        }
        let document = Document.parse(data, options: options)
        return dumpTree(document.node)
    }
}

/// The first differing line of two dumps, for failure reports.
func firstDifference(_ got: String, _ expected: String) -> String {
    let a = got.components(separatedBy: "\n"), b = expected.components(separatedBy: "\n")
    for i in 0..<max(a.count, b.count) {
        let x = i < a.count ? a[i] : "<end>", y = i < b.count ? b[i] : "<end>"
        if x != y { return "line \(i + 1): got \(x) / expected \(y)" }
    }
    return "identical"
}
