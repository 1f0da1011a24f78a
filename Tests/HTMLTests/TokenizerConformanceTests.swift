import Foundation
import PiperTestSupport
import Testing
import HTML

/// html5lib-tests tokenizer corpus: every case × every initial state, compared token by token
/// (parse errors are not compared), then again with the input fed in chunks.
struct TokenizerCase {
    var file: String
    var description: String
    var input: [UInt8]
    var expected: [String]
    var initialStates: [String]
    var lastStartTag: String?
    var xmlViolation: Bool

    var key: String { "\(file): \(description)" }

    static func loadAll() throws -> [TokenizerCase] {
        let dir = TestPaths.html5lib.appendingPathComponent("tokenizer")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            .filter { $0.hasSuffix(".test") }.sorted()
        var cases: [TokenizerCase] = []
        for file in files {
            let data = try Data(contentsOf: dir.appendingPathComponent(file))
            let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            for (listName, list) in root {
                for raw in try #require(list as? [[String: Any]]) {
                    cases.append(try TokenizerCase(file: file, json: raw, xmlViolation: listName == "xmlViolationTests"))
                }
            }
        }
        return cases
    }

    init(file: String, json: [String: Any], xmlViolation: Bool) throws {
        self.file = file
        self.xmlViolation = xmlViolation
        description = json["description"] as? String ?? "?"
        let doubleEscaped = json["doubleEscaped"] as? Bool ?? false
        let rawInput = try #require(json["input"] as? String)
        input = doubleEscaped ? unescapeToWTF8(rawInput) : Array(rawInput.utf8)
        initialStates = json["initialStates"] as? [String] ?? ["Data state"]
        lastStartTag = json["lastStartTag"] as? String
        func str(_ v: Any?) -> String? {
            guard let s = v as? String else { return nil }
            return doubleEscaped ? String(decoding: unescapeToWTF8(s), as: UTF8.self) : s
        }
        var out: [String] = []
        var text = ""
        for item in try #require(json["output"] as? [[Any]]) {
            let kind = try #require(item.first as? String)
            if kind == "Character" { text += str(item[1]) ?? ""; continue }
            if !text.isEmpty { out.append(TokenCollector.character(text)); text = "" }
            switch kind {
            case "DOCTYPE":
                out.append("DOCTYPE(\(q(str(item[1]))), \(q(str(item[2]))), \(q(str(item[3]))), \(item[4] as? Bool ?? false))")
            case "StartTag":
                let attrs = (item[2] as? [String: Any] ?? [:])
                    .map { "\(q(str($0.key)))=\(q(str($0.value)))" }.sorted().joined(separator: ", ")
                let selfClosing = item.count > 3 && (item[3] as? Bool ?? false)
                out.append("StartTag(\(q(str(item[1]))), {\(attrs)}\(selfClosing ? ", true" : ""))")
            case "EndTag": out.append("EndTag(\(q(str(item[1]))))")
            case "Comment": out.append("Comment(\(q(str(item[1]))))")
            default: Issue.record("unknown token kind \(kind) in \(file)")
            }
        }
        if !text.isEmpty { out.append(TokenCollector.character(text)) }
        expected = out
    }

    /// Tokenizes with the input split at `cuts` (byte offsets) and returns the token list.
    func run(initialState: String, cuts: [Int]) -> [String] {
        let sink = TokenCollector()
        let tokenizer = Tokenizer(sink: sink)
        switch initialState {
        case "PLAINTEXT state": tokenizer.setInitialState(.plaintext)
        case "RCDATA state": tokenizer.setInitialState(.rcdata)
        case "RAWTEXT state": tokenizer.setInitialState(.rawtext)
        case "Script data state": tokenizer.setInitialState(.scriptData)
        case "CDATA section state": tokenizer.setInitialStateCDATASection()
        default: tokenizer.setInitialState(.data)
        }
        if let lastStartTag { tokenizer.lastStartTagName = lastStartTag }
        var start = 0
        for cut in cuts + [input.count] where cut >= start {
            tokenizer.feed(Array(input[start..<cut]))
            start = cut
        }
        tokenizer.finish()
        sink.process(.eof)  // flush the collector's pending text
        return xmlViolation ? sink.tokens.map(coerceToInfoset) : sink.tokens
    }

    /// html5lib's "coercing an HTML DOM into an infoset" tweaks for xmlViolation.test.
    private func coerceToInfoset(_ token: String) -> String {
        var t = token.replacingOccurrences(of: "\\u{FFFF}", with: "\\u{FFFD}")
        if t.hasPrefix("Character(") { t = t.replacingOccurrences(of: "\\u{000C}", with: " ") }
        if t.hasPrefix("Comment(") { t = t.replacingOccurrences(of: "--", with: "- -") }
        return t
    }
}

func firstDifference(_ got: [String], _ expected: [String]) -> String {
    let n = zip(got, expected).prefix { $0.0 == $0.1 }.count
    let g = n < got.count ? got[n] : "(nothing)"
    let e = n < expected.count ? expected[n] : "(nothing)"
    return "token \(n): got \(g), expected \(e)"
}


@Suite(.ownThread) struct TokenizerConformanceTests {
    @Test func html5libTokenizerCorpus() throws {
        let cases = try TokenizerCase.loadAll()
        let known = try Ratchet.knownFailures(in: "Tests/HTMLTests/Ratchets/tokenizer-known-failures.txt")
        var passed = 0, total = 0, unlisted = 0
        var failing: Set<String> = []
        for c in cases {
            for state in c.initialStates {
                total += 1
                let got = c.run(initialState: state, cuts: [])
                if got == c.expected { passed += 1; continue }
                failing.insert(c.key)
                if !known.contains(c.key) { unlisted += 1 }
                print("FAIL \(c.key) [\(state)] input \(q(String(decoding: c.input, as: UTF8.self))): \(firstDifference(got, c.expected))")
            }
        }
        print("tokenizer passed \(passed)/\(total)")
        let ratchet = try TestPaths.ratchet("tokenizer.txt", "tokenizer")
        #expect(total > 6000, "the corpus was not found or is incomplete")
        #expect(passed >= ratchet, "tokenizer conformance regressed below the ratchet \(ratchet)")
        #expect(unlisted == 0, "failures not listed in tokenizer-known-failures.txt")
        #expect(known.subtracting(failing).isEmpty,
                "listed in tokenizer-known-failures.txt but passing now (remove them): \(known.subtracting(failing).sorted())")
    }

    /// The same cases with the input split at every byte position (short inputs) and fed one
    /// byte at a time: the tokens must not depend on how the input arrives.
    @Test func html5libTokenizerCorpusChunked() throws {
        let cases = try TokenizerCase.loadAll()
        var passed = 0, total = 0
        for c in cases {
            for state in c.initialStates {
                total += 1
                var splits: [[Int]] = [Array(0..<c.input.count)]  // 1-byte chunks
                if c.input.count <= 80 { splits += (1..<max(c.input.count, 1)).map { [$0] } }
                var failure: String?
                for cuts in splits {
                    let got = c.run(initialState: state, cuts: cuts)
                    if got != c.expected {
                        failure = "cuts \(cuts.count == 1 ? "at \(cuts[0])" : "every byte"): \(firstDifference(got, c.expected))"
                        break
                    }
                }
                if let failure {
                    print("FAIL chunked \(c.key) [\(state)] input \(q(String(decoding: c.input, as: UTF8.self))): \(failure)")
                } else {
                    passed += 1
                }
            }
        }
        print("tokenizer chunked passed \(passed)/\(total)")
        let ratchet = try TestPaths.ratchet("tokenizer.txt", "tokenizer-chunked")
        #expect(total > 6000, "the corpus was not found or is incomplete")
        #expect(passed >= ratchet, "chunked tokenizer conformance regressed below the ratchet \(ratchet)")
    }
}
