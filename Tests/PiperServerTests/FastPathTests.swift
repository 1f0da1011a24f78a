import Foundation
import PiperTestSupport
import Testing
@testable import PiperServer

/// The byte-level shortcuts on the save path must answer exactly what the general code answers.
@Suite(.ownThread) struct FastPathTests {
    static let urls: [String] = {
        var urls = [
            "", " ", "https://example.org/", "HTTPS://Example.org/a?b#c", "  https://x/ ", "\thttps://x/",
            "https://x/\n", "java\nscript:alert(1)", "java\u{1}script:x", "javascript:alert(1)", "JavaScript:x",
            "/path:with/colon", "no-scheme", "?q=a:b", "#frag:x", ":nothing", "mailto:a@b.c", "data:image/png;base64,AA",
            "é:x", "https://例え.jp/パス", "h\u{7F}ttp:x", "ht tp:x", "\u{0}https://x", "https://x\u{0}", "\u{A0}https://x",
            "https://x/\u{A0}", "x\u{2028}y:z", "\r\n", "a", "\u{1F600}:x", "relative/path.html", "../up",
        ]
        for byte in 0...0x7F {
            let c = String(UnicodeScalar(UInt8(byte)))
            urls += [c + "http://x", "http://x" + c, "ht" + c + "tp:x", c, c + ":x"]
        }
        return urls
    }()

    @Test func cleanedMatchesTheScalarRule() {
        for url in Self.urls {
            #expect(URLPolicy.cleaned(url) == URLPolicy.cleanedByScalars(url), "\(url.debugDescription)")
        }
    }

    @Test func schemeMatchesTheScalarRule() {
        for url in Self.urls {
            #expect(URLPolicy.scheme(of: url) == URLPolicy.schemeByScalars(url), "\(url.debugDescription)")
        }
    }

    @Test func srcsetSplitMatchesTheScalarRule() {
        var sets = [
            "a.png", "a.png 2x", "a.png 2x, b.png 3x", " a.png  2x ,b.png,, c.png 100w ", "a.png,b.png",
            "a.png,, b.png", ",,,", "", " ", "data:image/png;base64,AAA=, https://e.org/b.png 2x",
            "a.png (x, y) 2x, b.png", "a.png ((x), y)), c", "a.png\t2x,\nb.png\r\n3x", "a.png \r\n",
            "u1 2x\u{B}, u2\u{C}1x", "x,", "x 1x,", "x (", "x )", "x ),y",
        ]
        for byte in 0...0x7F {
            let c = String(UnicodeScalar(UInt8(byte)))
            sets += ["a" + c + "b 2x, c", "a 2x" + c + ", b" + c, c + "a," + c + "b " + c + "1x"]
        }
        for set in sets {
            var set = set
            let bytes = set.withUTF8 { Array($0) }
            let fast = bytes.withUnsafeBufferPointer { URLPolicy.srcsetCandidates(ascii: $0) }
            let general = URLPolicy.srcsetCandidatesByScalars(set)
            #expect(fast.map(\.url) == general.map(\.url) && fast.map(\.descriptor) == general.map(\.descriptor),
                    "\(set.debugDescription)")
        }
        // Non-ASCII values take the scalar rule (Unicode whitespace splits, here U+00A0 and U+3000).
        let wide = URLPolicy.srcsetCandidates("a.png\u{A0}2x,\u{3000}b.png")
        #expect(wide.map(\.url) == ["a.png", "b.png"] && wide.map(\.descriptor) == ["2x", ""])
    }

    @Test func escapeMatchesTheScalarRule() {
        let texts = Self.urls + ["a & b < c > d \" e ' f", "caf\u{E9} & th\u{E9}", "\u{1F600}<", "plain text"]
        for text in texts {
            var expected = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "&": expected += "&amp;"
                case "<": expected += "&lt;"
                case ">": expected += "&gt;"
                case "\"": expected += "&quot;"
                case "'": expected += "&#39;"
                case "\u{0}": expected += "\u{FFFD}"
                case "\r": expected += "&#13;"
                default: expected.unicodeScalars.append(scalar)
                }
            }
            #expect(HTMLEscape.escape(text) == expected, "\(text.debugDescription)")
        }
    }

    @Test func jsonTextMatchesJSONEncoder() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var values = Self.urls + ["https://example.org/6f1c1d2e", "Line\u{2028}sep\u{2029}", "back\\slash \"quoted\"", "caf\u{E9}"]
        values.append(String(decoding: (0..<0x80).map { UInt8($0) }, as: UTF8.self))
        for value in values {
            let expected = Array(try encoder.encode(["url": value]))
            #expect(JSONText.object(["url": value]) == expected, "\(value.debugDescription)")
        }
        #expect(JSONText.object([:]) == nil)
        #expect(JSONText.object(["a": "1", "b": "2"]) == nil)
    }

    @Test func trimmingMatchesFoundation() {
        let texts = Self.urls + ["Title", " Title ", "Title\u{A0}", "\u{3000}Title", "T", "\u{85}x", "x\u{2029}"]
        for text in texts {
            let expected = text.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(SaveInput.trimmed(text) == expected, "\(text.debugDescription)")
            #expect(SaveInput.hasContent(text) == !expected.isEmpty, "\(text.debugDescription)")
        }
    }

    @Test func headerNamesCompareLikeFoundation() {
        let names = ["X-Content-Type-Options", "x-content-type-options", "X-CONTENT-TYPE-OPTIONS", "X-Content-Type",
                     "Content-Type", "content-typf", "", "Ä-Header", "ä-header", "[", "{", "@", "`"]
        for a in names {
            for b in names {
                #expect(HTTPResponse.sameName(a, b) == (a.caseInsensitiveCompare(b) == .orderedSame), "\(a) vs \(b)")
            }
        }
    }

    @Test func nulIsReplaced() {
        #expect(SaveInput.withoutNUL("a\u{0}b") == "a\u{FFFD}b")
        #expect(SaveInput.withoutNUL("plain") == "plain")
    }
}

/// `FlatJSON` either declines or reads a body exactly as `JSONSerialization` does.
@Suite(.ownThread) struct FlatJSONTests {
    static let bodies: [String] = [
        #"{"title":"T","content":"<p>x</p>"}"#,
        " {\n\t\"title\" : \"T\" ,\r\n \"content\":\"C\" } \n",
        #"{}"#, #"{ }"#, #"{"a":"1"}"#,
        #"{"title":"Esc \" \\ \/ \b \f \n \r \t end","content":"x"}"#,
        #"{"title":"\u00e9\u0041\u0000\uD83D\uDE00","content":"\u2028"}"#,
        #"{"title":"caf\#u{E9} \#u{1F600}","content":"日本語"}"#,
        #"{"title":"lone \uD83D","content":"x"}"#, #"{"title":"lone \uDE00 low","content":"x"}"#,
        #"{"title":"bad \x","content":"x"}"#, #"{"title":"bad \u12G4","content":"x"}"#,
        #"{"title":"T","title":"U"}"#, #"{"title":1,"content":"x"}"#, #"{"title":null}"#,
        #"{"title":["a"]}"#, #"{"title":{"a":"b"}}"#, #"{"title":true}"#,
        #"{"title":"T",}"#, #"{"title":"T""content":"C"}"#, #"{"title":"T"} x"#, #"["a"]"#, #""str""#,
        "{\"title\":\"raw\ttab\"}", "{\"title\":\"raw\nnewline\"}", #"{"title":"unterminated}"#, #"{"#, "", " ",
        "\u{FEFF}{\"title\":\"bom\"}",
    ]

    @Test func acceptedBodiesReadLikeJSONSerialization() throws {
        var accepted = 0
        for body in Self.bodies {
            guard let fast = FlatJSON.stringObject(Array(body.utf8)) else { continue }
            accepted += 1
            let slow = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8), options: [.fragmentsAllowed]) as? [String: Any],
                                    "\(body.debugDescription)")
            #expect(slow.count == fast.count, "\(body.debugDescription)")
            for (key, value) in fast {
                #expect(slow[key] as? String == value, "\(body.debugDescription) key \(key)")
            }
        }
        #expect(accepted >= 8)
    }

    @Test func invalidUTF8IsDeclined() {
        #expect(FlatJSON.stringObject(Array(#"{"title":""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)) == nil)
        #expect(FlatJSON.stringObject(Array(#"{"title":"\u00e9"}"#.utf8)) == ["title": "\u{E9}"])
    }

    @Test func declinedBodiesGetFoundationsAnswer() throws {
        for body in [#"{"title":1,"content":"x"}"#, #"["a"]"#, "{"] {
            #expect(throws: HTTPError.self) { _ = try SaveInput(json: Array(body.utf8)) }
        }
        #expect(throws: HTTPError(400, "Field 'title' must be a string")) {
            _ = try SaveInput(json: Array(#"{"title":1,"content":"x"}"#.utf8))
        }
        // The same messages whichever reader took the body.
        #expect(throws: HTTPError(400, "Missing field 'content'")) { _ = try SaveInput(json: Array(#"{"title":"T"}"#.utf8)) }
        #expect(throws: HTTPError(400, "Missing field 'content'")) {
            _ = try SaveInput(json: Array(#"{"title":"T","content":null}"#.utf8))
        }
        #expect(throws: HTTPError(400, "Field 'title' is empty")) { _ = try SaveInput(json: Array(#"{"title":" ","content":"x"}"#.utf8)) }
        #expect(throws: HTTPError(400, "Field 'title' is empty")) {
            _ = try SaveInput(json: Array(#"{"title":" ","content":"x","n":1}"#.utf8))
        }
        let input = try SaveInput(json: Array(#"{"title":" T ","content":"<p>x</p>"}"#.utf8))
        #expect(input.title == "T")
        #expect(input.content == "<p>x</p>")
    }
}
