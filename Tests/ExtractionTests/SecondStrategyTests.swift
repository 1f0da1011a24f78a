import Extraction
import Foundation
import HTML
import Testing

/// The piper mode's second container strategy: threads keep every post (also inside the
/// <noscript> Readability removes), and listings stand in when Readability finds next to nothing.
@Suite struct SecondStrategyTests {
    static func post(_ n: Int, author: String) -> String {
        """
        <div id="post_\(n)" class="topic-body crawler-post">
          <div class="crawler-post-meta"><span class="creator"><a href="/u/\(author)">\(author)</a></span>
            <time class="post-time">March \(n), 2026</time></div>
          <div class="post"><p>Reply number \(n) explains in plain words how the resolver treats the
          minimum supported version, and why bumping it is not considered a breaking change here.</p></div>
        </div>
        """
    }

    static func extract(_ html: String, mode: ExtractionMode = .piper) throws -> String? {
        let document = Document.parse(html, options: ArticlePipeline.parseOptions())
        return try Extraction.extract(document, url: "https://example.org/t/1", mode: mode)?.textContent
    }

    @Test func aThreadInsideNoscriptKeepsEveryPostWithItsAuthor() throws {
        let posts = (1...4).map { Self.post($0, author: "user\($0)") }.joined()
        let html = "<html><head><title>A question</title></head><body><header><nav><a href=/>Home</a></nav></header>"
            + "<noscript><div id=main-outlet role=main><h1>A question</h1>\(posts)</div></noscript>"
            + "<footer><a href=/tos>Terms</a> <a href=/privacy>Privacy</a></footer></body></html>"
        let readability = try Self.extract(html, mode: .readability) ?? ""
        #expect(!readability.contains("Reply number"), "Readability drops the noscript")
        let text = try #require(try Self.extract(html))
        for n in 1...4 {
            #expect(text.contains("Reply number \(n) explains"), "post \(n) missing")
            #expect(text.contains("user\(n)"), "author \(n) missing")
        }
        #expect(!text.contains("Privacy"))
    }

    @Test func aThreadBesideReadabilitysOnePostKeepsAllOfThem() throws {
        let posts = (1...5).map { Self.post($0, author: "member\($0)") }.joined()
        let html = "<html><head><title>Thread</title></head><body><div class=thread>\(posts)</div>"
            + "<aside><h3>Related</h3><ul><li><a href=/a>Other topic</a></li><li><a href=/b>Another</a></li></ul></aside></body></html>"
        let text = try #require(try Self.extract(html))
        for n in 1...5 { #expect(text.contains("Reply number \(n)"), "post \(n) missing") }
        #expect(!text.contains("Other topic"))
    }

    @Test func aListingStandsInWhenReadabilityFindsNextToNothing() throws {
        let items = (1...8).map { "<li class=product-card><a href=/p/\($0)>Helmet light model \($0)</a> <span class=price>$\($0)9.95</span></li>" }.joined()
        let html = "<html><head><title>Lights</title></head><body><h1>Lights</h1><p>8 results</p><ul class=products>\(items)</ul></body></html>"
        let text = try #require(try Self.extract(html))
        for n in 1...8 { #expect(text.contains("Helmet light model \(n)"), "item \(n) missing") }
    }
}
