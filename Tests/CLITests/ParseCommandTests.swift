import Foundation
import PiperTestSupport
import Testing

/// `piper parse --tree` prints the html5lib-tests tree: checked against the corpus's expected
/// trees on a sample of documents and fragments, through the built binary.
@Suite(.ownThread) struct ParseCommandTests {
    struct Case { let data: String; let fragment: String?; let expected: String; let scripting: Bool? }

    /// The `#data` / `#document-fragment` / `#document` sections of the first `limit` cases.
    static func cases(_ file: String, limit: Int) -> [Case] {
        let url = PiperBinary.packageRoot.appendingPathComponent("../shared/corpus/html5lib-tests/tree-construction/\(file)")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        var out: [Case] = []
        for block in text.components(separatedBy: "\n\n#data\n") where out.count < limit {
            var sections: [String: [String]] = [:]
            var current = "#data"
            for line in block.components(separatedBy: "\n") {
                if line.hasPrefix("#"), ["#data", "#errors", "#new-errors", "#document-fragment", "#script-on", "#script-off", "#document"].contains(line) {
                    current = line
                    sections[current, default: []] = []
                } else {
                    sections[current, default: []].append(line)
                }
            }
            guard let data = sections["#data"], let expected = sections["#document"] else { continue }
            let scripting: Bool? = sections["#script-on"] != nil ? true : (sections["#script-off"] != nil ? false : nil)
            out.append(Case(data: data.joined(separator: "\n"), fragment: sections["#document-fragment"]?.first,
                            expected: expected.joined(separator: "\n").trimmingCharacters(in: .newlines), scripting: scripting))
        }
        return out
    }

    @Test(arguments: ["tests1.dat", "tests_innerHTML_1.dat", "template.dat", "svg.dat"])
    func treeMatchesTheCorpus(_ file: String) throws {
        let sample = Self.cases(file, limit: 12)
        try #require(sample.count >= 5, "the corpus file \(file) is readable")
        var passed = 0
        for c in sample {
            var args = ["parse", "--tree", "--encoding", "utf-8"]
            if let context = c.fragment { args += ["--fragment", context] }
            if c.scripting == false { args += ["--scripting", "off"] }
            args.append("-")
            let r = try PiperBinary.run(args, stdin: Data(c.data.utf8))
            let got = r.stdout.trimmingCharacters(in: .newlines)
            if r.status == 0 && got == c.expected {
                passed += 1
            } else {
                Issue.record("input: \(c.data.debugDescription)\ngot:\n\(got)\nexpected:\n\(c.expected)")
            }
        }
        print("piper parse --tree \(file): \(passed)/\(sample.count)")
    }

    @Test func htmlOutputAndUsageErrors() throws {
        let r = try PiperBinary.run(["parse", "--html", "--encoding", "utf-8", "-"], stdin: Data("<p>a<b>b</p>c".utf8))
        #expect(r.status == 0)
        #expect(r.stdout == "<html><head></head><body><p>a<b>b</b></p><b>c</b></body></html>\n")
        #expect(try PiperBinary.run(["parse", "--tree", "--html", "-"]).status == 64)
        #expect(try PiperBinary.run(["parse", "--scripting", "maybe", "-"]).status == 64)
        #expect(try PiperBinary.run(["parse"]).status == 64)
        let missing = try PiperBinary.run(["parse", "/nonexistent/page.html"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("/nonexistent/page.html"))
    }
}
