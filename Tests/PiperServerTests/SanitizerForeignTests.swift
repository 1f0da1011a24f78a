import Foundation
import PiperTestSupport
import Testing
@testable import PiperServer

/// MathML, SVG and embeds: what is kept, what is replaced, what is counted.
@Suite(.ownThread) struct SanitizerForeignTests {
    @Test(arguments: XSSPayloads.math)
    func mathPayloadLeavesNoActiveMarkupAndIsAFixedPoint(payload: String) {
        let clean = HTMLSanitizer.sanitize("<p>before</p>" + payload + "<p>after</p>")
        for bad in XSSPayloads.forbidden + ["<style", "href=\"javascript", "<annotation", "<mglyph"] {
            #expect(!clean.lowercased().contains(bad), "\(bad) survived in \(clean)")
        }
        #expect(HTMLSanitizer.sanitize(clean) == clean)
    }

    @Test func thereAreAtLeastFortyMathAndSVGVectors() {
        #expect(XSSPayloads.math.count >= 40)
    }

    @Test(arguments: [
        ("<p><math display=\"block\"><mfrac><mi>a</mi><mn>2</mn></mfrac></math></p>",
         "<p><math display=\"block\"><mfrac><mi>a</mi><mn>2</mn></mfrac></math></p>"),
        ("<math><semantics><mrow><mi>x</mi><mo>+</mo><mn>1</mn></mrow><annotation encoding=\"TeX\">x+1</annotation></semantics></math>",
         "<math><semantics><mrow><mi>x</mi><mo>+</mo><mn>1</mn></mrow></semantics></math>"),
        ("<math><msup><mi>e</mi><mrow><mi>i</mi><mi>π</mi></mrow></msup></math>",
         "<math><msup><mi>e</mi><mrow><mi>i</mi><mi>π</mi></mrow></msup></math>"),
        ("<math><mi><b>bold</b></mi></math>", "<math><mi>bold</mi></math>"),
        ("<p>A <svg viewBox=\"0 0 1 1\"><circle r=\"1\"/></svg> figure</p>", "<p>A <span>[figure omitted]</span> figure</p>"),
        ("<p><iframe src=\"https://www.youtube.com/embed/abc?x=1\"></iframe></p>",
         "<p><a href=\"https://www.youtube.com/embed/abc?x=1\">▶ Video: youtube.com/embed/abc?x=1</a></p>"),
        ("<iframe src=\"https://maps.example.org/embed?q=1\"></iframe>",
         "<a href=\"https://maps.example.org/embed?q=1\">Embedded content: maps.example.org</a>"),
        ("<video src=\"https://cdn.example.org/clip.mp4\"><track src=\"x\"></video>",
         "<a href=\"https://cdn.example.org/clip.mp4\">▶ Video: cdn.example.org/clip.mp4</a>"),
        ("<object data=\"https://example.org/a.swf\"></object><embed src=\"//example.org/b\"><embed src=\"/local\">",
         "<a href=\"https://example.org/a.swf\">Embedded content: example.org</a><a href=\"https://example.org/b\">Embedded content: example.org</a>"),
        ("<iframe src=\"//www.dailymotion.com/embed/video/x2p552m\"></iframe>",
         "<a href=\"https://www.dailymotion.com/embed/video/x2p552m\">▶ Video: dailymotion.com/embed/video/x2p552m</a>"),
        ("<video controls><source src=\"https://cdn.example.org/a.webm\"></video>",
         "<video controls><source src=\"https://cdn.example.org/a.webm\"></video>"),
    ])
    func keptAndReplaced(input: String, expected: String) {
        let clean = HTMLSanitizer.sanitize(input)
        #expect(clean == expected)
        #expect(HTMLSanitizer.sanitize(clean) == clean)
    }

    /// The parser drops one newline right after `<pre>`; a newline that came after removed
    /// elements must survive saving, and saving again.
    @Test(arguments: [
        ("<pre><script>x</script>\nline one\nline two</pre>", "<pre>\n\nline one\nline two</pre>"),
        ("<pre><iframe src=\"javascript:x\"></iframe>\n\nindented</pre>", "<pre>\n\n\nindented</pre>"),
        ("<pre><unknown-tag></unknown-tag>\nafter an unwrapped element</pre>", "<pre>\n\nafter an unwrapped element</pre>"),
        ("<pre>\n\nfirst text</pre>", "<pre>\n\nfirst text</pre>"),
        ("<pre>no newline</pre>", "<pre>no newline</pre>"),
    ])
    func aPreKeepsItsLeadingNewlineAfterRemovedElements(input: String, expected: String) {
        let clean = HTMLSanitizer.sanitize(input)
        #expect(clean == expected, "\(clean.debugDescription)")
        #expect(HTMLSanitizer.sanitize(clean) == clean)
        #expect(HTMLSanitizer.sanitize(HTMLSanitizer.sanitize(clean)) == clean)
    }

    @Test func theSaveAnswerCountsWhatWasRemoved() async throws {
        let backend = try startBackend()
        let content = "<p>x</p><script>a</script><script>b</script><iframe src=\"https://youtu.be/x\"></iframe><svg></svg><math><maction><mi>y</mi></maction></math>"
        let reply = try await Client.save(backend.baseURL, title: "Counts", content: content)
        #expect(reply.status == 200)
        let removed = try #require(try reply.json()["removed"] as? [String: Int])
        #expect(removed == ["script": 2, "iframe": 1, "svg": 1, "mathml": 1])
        let plain = try await Client.save(backend.baseURL, title: "Clean", content: "<p>nothing to remove</p>")
        #expect(try plain.json()["removed"] == nil)
    }
}
