import Foundation
import HTML
import PiperTestSupport
import Testing
@testable import Extraction

/// A caption the text leaves out is marked as one in the article's HTML (`CaptionFigures`),
/// so what a reader shows of the HTML is what the text says; what cannot hold a figure, or is a
/// caption already, is left as it is.
@Suite(.ownThread) struct CaptionFiguresTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var body: String
        /// The caption the text left out.
        var caption: String
        var expected: String
        var testDescription: String { name }
    }

    static let cases = [
        Case(name: "a caption alone in its paragraph: the paragraph is the figure's caption",
             body: "<div><p>Text.</p><p> <span id=c>Troops at the museum (Reuters)</span> </p></div>", caption: "#c",
             expected: "<div><p>Text.</p><figure><figcaption><p> <span id=\"c\">Troops at the museum (Reuters)</span> </p></figcaption></figure></div>"),
        Case(name: "a caption box of its own",
             body: "<div><p>Text.</p><div id=c><p>The dam at dawn.</p><p>Picture: J. Roe</p></div></div>", caption: "#c",
             expected: "<div><p>Text.</p><figure><figcaption><div id=\"c\"><p>The dam at dawn.</p><p>Picture: J. Roe</p></div></figcaption></figure></div>"),
        Case(name: "a caption already in a figcaption",
             body: "<div><figure><img src=a.jpg><figcaption id=c>The dam.</figcaption></figure></div>", caption: "#c",
             expected: "<div><figure><img src=\"a.jpg\"><figcaption id=\"c\">The dam.</figcaption></figure></div>"),
        Case(name: "a box holding its picture too (the picture is no caption)",
             body: "<div><div id=c><img src=a.jpg><p>The dam.</p></div></div>", caption: "#c",
             expected: "<div><div id=\"c\"><img src=\"a.jpg\"><p>The dam.</p></div></div>"),
        Case(name: "a caption inside a paragraph with other words (no figure fits there)",
             body: "<div><p>Before <span id=c>(Reuters)</span> after.</p></div>", caption: "#c",
             expected: "<div><p>Before <span id=\"c\">(Reuters)</span> after.</p></div>"),
        Case(name: "a picture and its legend in one paragraph: the paragraph is the picture's figure",
             body: "<div><p>Text.</p><p>\n <img src=a.png><br>\n <i id=c>The hand is protecting the slot.</i>\n</p></div>", caption: "#c",
             expected: "<div><p>Text.</p><figure><img src=\"a.png\"><figcaption><i id=\"c\">The hand is protecting the slot.</i></figcaption></figure></div>"),
        Case(name: "a linked picture and a legend in a span",
             body: "<div><p><a href=a.png><img src=a.png></a><br><span><em id=c>Rectangles.</em></span></p></div>", caption: "#c",
             expected: "<div><figure><a href=\"a.png\"><img src=\"a.png\"></a><figcaption><span><em id=\"c\">Rectangles.</em></span></figcaption></figure></div>"),
        Case(name: "an empty anchor beside the picture (wapo's) goes into the figure with it",
             body: "<div><p><a name=top></a> <img src=a.jpg><br> <span id=c>The prime minister at the Western Wall. (AFP)</span></p></div>", caption: "#c",
             expected: "<div><figure><a name=\"top\"></a><img src=\"a.jpg\"><figcaption><span id=\"c\">The prime minister at the Western Wall. (AFP)</span></figcaption></figure></div>"),
        Case(name: "a paragraph with words beside the picture and the legend stays a paragraph",
             body: "<div><p><img src=a.png><br><i id=c>Rectangles.</i> And more words.</p></div>", caption: "#c",
             expected: "<div><p><img src=\"a.png\"><br><i id=\"c\">Rectangles.</i> And more words.</p></div>"),
        Case(name: "a paragraph of a legend after a line break but no picture stays a paragraph",
             body: "<div><p><br><i id=c>Rectangles.</i></p></div>", caption: "#c",
             expected: "<div><p><br><i id=\"c\">Rectangles.</i></p></div>"),
    ]

    @Test(arguments: cases)
    func marksWhatTheTextLeftOut(_ c: Case) throws {
        let document = Document.parse("<html><body>\(c.body)</body></html>")
        let root = try #require(document.body?.firstChild)
        let caption = try #require(root.querySelector(c.caption))
        CaptionFigures.mark([caption], in: root)
        #expect(root.outerHTML == c.expected)
    }

    /// Through the whole pipeline, on the Readability corpus's wapo-1: the video's caption the
    /// text leaves out is a figure caption in the HTML, and the text is what it was.
    @Test func aVideosCaptionOnACorpusPage() throws {
        let source = packageRoot.appendingPathComponent("../shared/corpus/readability/wapo-1/source.html").standardizedFileURL
        let html = try String(contentsOf: source, encoding: .utf8)
        let document = Document.parse(html, options: ArticlePipeline.parseOptions())
        let article = try #require(try Extraction.extract(document, url: "https://corpus.example/wapo-1/", mode: .piper))
        #expect(!article.textContent.contains("Gunmen in military uniforms"))
        #expect(article.textContent.contains("Gunmen opened fire on visitors"))
        let marked = try #require(article.content.range(of: "Gunmen in military uniforms"))
        let before = article.content[..<marked.lowerBound]
        #expect(before.range(of: "<figcaption>", options: .backwards).map { before[$0.upperBound...].contains("</figcaption>") } == false,
                "the caption is inside a figcaption")
    }
}
