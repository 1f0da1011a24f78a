import Foundation
import PiperTestSupport
import Testing
@testable import PiperServer

/// The sanitizer's fast path (`StreamingSanitizer`, straight from tokens) either declines or
/// writes byte for byte what the full path (parse, walk, further rounds) writes.
@Suite(.ownThread) struct SanitizerFastPathTests {
    /// Every `#data` of the html5lib tree-construction files: markup the tree builder restructures.
    static let treeConstructionInputs: [String] = {
        let folder = sharedFolder.appendingPathComponent("corpus/html5lib-tests/tree-construction")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var inputs: [String] = []
        for file in files.sorted() where file.hasSuffix(".dat") {
            guard let text = try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8) else { continue }
            var lines = text.components(separatedBy: "\n")[...]
            while let line = lines.popFirst() {
                guard line == "#data" else { continue }
                var data: [String] = []
                while let next = lines.first, !next.hasPrefix("#errors"), next != "#document-fragment" {
                    data.append(next)
                    lines.removeFirst()
                }
                inputs.append(data.joined(separator: "\n"))
            }
        }
        return inputs
    }()

    static let articleBodies: [String] = {
        let folder = SanitizerCorpusTests.corpus
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().compactMap {
            try? String(contentsOf: folder.appendingPathComponent($0).appendingPathComponent("expected.html"), encoding: .utf8)
        }
    }()

    static let handWritten = [
        "<p>A short paragraph.</p><p>And a <a href=\"https://example.org/\">link</a>.</p>",
        "<pre>\nkept</pre>", "<pre>\n\nkept</pre>", "<pre><!--c-->\nx</pre>", "<pre>x\n</pre>",
        "<p>a<b>b<i>c</i></b></p>", "<b><b><b><b>deep</b></b></b></b>x", "<ul><li>a<li>b</ul>", "<p><div>x</div></p>",
        "<table><tbody><tr><td>x</td></tr></tbody></table>", "<table><tr><td>x</td></tr></table>", "<table> <tbody>\n</tbody></table>",
        "<table>text</table>", "<span/>after", "<br/><img src=x alt=\"a&amp;b\">", "a\u{0}b", "<P CLASS=x TITLE='T'>up</P>",
        "<p>open", "<a href=javascript:alert(1)>x</a>", "<img src=\"data:image/png;base64,AA\" srcset=\"a.png 2x, javascript:x 3x\">",
        "&lt;script&gt; &amp; &#13; &#0;", "<h2>a<h3>b</h3></h2>", "<ruby>r<rt>a</rt><rp>(</rp></ruby>", "</p>", "<!doctype html><p>x",
        "<video src=\"https://e.org/v.mp4\"></video>", "<audio><source src=a.mp3></audio>", "<math><mi>x</mi></math>", "<svg></svg>",
        "<p title=\"a\rb\">c\r\nd</p>", "x<script>alert(1)</script>y", "<blockquote><p>q</blockquote>",
    ]

    @Test func fastPathWritesWhatTheFullPathWrites() throws {
        let inputs = Self.handWritten + Self.articleBodies + Self.treeConstructionInputs
        try #require(Self.articleBodies.count > 50 && Self.treeConstructionInputs.count > 1000)
        var taken = 0
        for html in inputs {
            guard let fast = StreamingSanitizer.sanitize(html) else { continue }
            taken += 1
            let full = HTMLSanitizer.sanitizeCounting(html, fastPath: false)
            #expect(fast == full.html, "\(html.debugDescription)")
            #expect(full.removed.isEmpty, "\(html.debugDescription)")
        }
        let bodies = Self.articleBodies.filter { StreamingSanitizer.sanitize($0) != nil }.count
        print("sanitizer fast path: \(taken) of \(inputs.count) inputs, \(bodies) of \(Self.articleBodies.count) article bodies")
        #expect(bodies * 2 > Self.articleBodies.count)      // most article bodies are plain markup
    }

    @Test func fastPathDeclinesWhatThePolicyRemovesOrTheParserMoves() {
        for html in ["<p><div>x</div></p>", "<table>text</table>", "<table><tr><td>x</td></tr></table>", "a\u{0}b", "</p>",
                     "x<script>alert(1)</script>y", "<video src=\"https://e.org/v.mp4\"></video>", "<math><mi>x</mi></math>",
                     "<font>x</font>", "<a href=x><a href=y>z</a></a>", "<pre><!--c-->\nx</pre>", "<!doctype html><p>x"] {
            #expect(StreamingSanitizer.sanitize(html) == nil, "\(html.debugDescription)")
        }
        #expect(StreamingSanitizer.sanitize("<p>a <b>b</b></p>") == "<p>a <b>b</b></p>")
        #expect(StreamingSanitizer.sanitize("<pre>\n\nx") == "<pre>\n\nx</pre>")
    }

    @Test func attributeSwitchMatchesThePolicySets() {
        let names = SanitizerPolicy.attributes.union(SanitizerPolicy.sourceAttributes).union(["onclick", "style", "class", "id", "controls", "xlink:href"])
        for element in SanitizerPolicy.kept.union(["x-custom", "svg", "iframe"]) {
            for name in names {
                let expected: Bool
                switch name {
                case "href": expected = element == "a"
                case "src": expected = ["img", "source", "audio", "video"].contains(element)
                case "srcset": expected = element == "img" || element == "source"
                default:
                    expected = SanitizerPolicy.attributes.contains(name) || (element == "source" && SanitizerPolicy.sourceAttributes.contains(name))
                }
                #expect((SanitizerPolicy.attributeValue(element: element, name: name, value: "a.png") != nil) == expected, "\(element) \(name)")
            }
        }
    }

    @Test func appendedEscapeEqualsEscape() {
        let texts = FastPathTests.urls + ["a & b < c > d \" e ' f", "caf\u{E9} & th\u{E9}", "\u{1F600}<", "plain text", "a\u{0}b\u{0}",
                                          "\u{0}", "\r", String(repeating: "long text without specials ", count: 40) + "&"]
        for text in texts {
            var out: [UInt8] = Array("x".utf8)
            HTMLEscape.append(text, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == "x" + HTMLEscape.escape(text), "\(text.debugDescription)")
        }
    }
}
