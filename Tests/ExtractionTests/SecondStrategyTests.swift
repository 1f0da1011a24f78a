import CorpusEval
import Extraction
import Foundation
import HTML
import PiperTestSupport
import Testing

/// The piper mode's second container strategy: threads keep every post (also inside the
/// <noscript> Readability removes), and listings stand in when Readability finds next to nothing.
@Suite(.ownThread) struct SecondStrategyTests {
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
        try extractedText(html, url: "https://example.org/t/1", mode: mode)
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

    /// Forum engines name the poster's card beside each post (join date, post count, rank:
    /// "message-userDetails", "userExtras", phpBB's "postprofile"); it is not the post.
    @Test(arguments: ["message-userDetails", "userExtras", "postprofile"])
    func aPostersCardInAThreadGoes(className: String) throws {
        let posts = (1...5).map {
            "<div class=\"\(className)\"><dl><dt>Joined</dt><dd>Jan 2019</dd><dt>Messages</dt><dd>1,20\($0)</dd></dl></div>"
                + Self.post($0, author: "member\($0)")
        }.map { "<article class=message>\($0)</article>" }.joined()
        let html = "<html><head><title>Thread</title></head><body><div class=thread>\(posts)</div></body></html>"
        let text = try #require(try Self.extract(html))
        for n in 1...5 { #expect(text.contains("Reply number \(n)"), "post \(n) missing") }
        #expect(!text.contains("Joined"))
    }

    /// A post's "3 hours ago" stamp (a relative-time box) is furniture, though the post
    /// header's author and date are kept in a thread.
    @Test func aRelativeTimeStampInAThreadGoes() throws {
        let posts = (1...5).map { "<article class=message><div class=attribution>Posted <span class=\"u-relativeTime\">\($0) hours ago</span></div>"
            + Self.post($0, author: "member\($0)") + "</article>" }.joined()
        let html = "<html><head><title>Thread</title></head><body><div class=thread>\(posts)</div></body></html>"
        let text = try #require(try Self.extract(html))
        for n in 1...5 { #expect(text.contains("Reply number \(n)"), "post \(n) missing") }
        #expect(!text.contains("hours ago"))
    }

    @Test func aListingStandsInWhenReadabilityFindsNextToNothing() throws {
        let items = (1...8).map { "<li class=product-card><a href=/p/\($0)>Helmet light model \($0)</a> <span class=price>$\($0)9.95</span></li>" }.joined()
        let html = "<html><head><title>Lights</title></head><body><h1>Lights</h1><p>8 results</p><ul class=products>\(items)</ul></body></html>"
        let text = try #require(try Self.extract(html))
        for n in 1...8 { #expect(text.contains("Helmet light model \(n)"), "item \(n) missing") }
    }
}

/// The container choice's evidence beyond Readability's scores: JSON-LD page types, text in
/// <noscript>, listings beside a short prose box.
@Suite(.ownThread) struct ContainerChoiceTests {
    static let sentence = "The resolver reads the manifest, checks every pinned version against the index and reports the first conflict it finds. "

    /// A forum page of wcxb-dev (0514) whose JSON-LD declares a DiscussionForumPosting:
    /// Readability keeps about half of the thread; the declaration makes its posts the content.
    @Test func aPageDeclaringAThreadKeepsItsPosts() throws {
        let folder = Collection.corpusFolder(packageRoot: PiperTestSupport.packageRoot)
        let page = try #require(try Collection.wcxbDev.pages(in: folder).first { $0.id == "0514" })
        let html = String(decoding: try page.bytes(), as: UTF8.self)
        #expect(html.contains("\"DiscussionForumPosting\""))
        func recall(_ html: String) throws -> Double {
            let document = Document.parse(html, options: ArticlePipeline.parseOptions())
            let text = try Extraction.extract(document, url: page.url, mode: .piper)?.textContent ?? ""
            return Metrics.wordScore(predicted: text, reference: page.reference).recall
        }
        let declared = try recall(html)
        // The page's terms dialog, once removed as a modal box, leaves Readability the whole
        // thread too; made a plain box, it leaves the declaration as the only evidence.
        let plainBox = html.replacingOccurrences(of: "<dialog ", with: "<div ")
            .replacingOccurrences(of: " role=\"dialog\" aria-modal=\"true\"", with: "")
        #expect(plainBox != html)
        let undeclared = try recall(plainBox.replacingOccurrences(of: "application/ld+json", with: "text/plain"))
        #expect(declared >= 0.9, "recall \(declared) with the declaration")
        #expect(undeclared < 0.7, "recall \(undeclared) without it: the declaration is what keeps the posts")
    }

    @Test func postsRenderedInNoscriptForCrawlersAreText() throws {
        let posts = (1...2).map { "<article><h3>member\($0)</h3><div class=Post-body><p>Post \($0). \(String(repeating: Self.sentence, count: 3))</p></div></article>" }.joined()
        let html = "<html><head><title>A thread</title></head><body><main><noscript><p>Enable JavaScript.</p></noscript>"
            + "<noscript id=forum-content><div class=container><h1>A thread</h1><div>\(posts)</div></div></noscript></main></body></html>"
        let text = try #require(try SecondStrategyTests.extract(html))
        #expect(text.contains("Post 1. The resolver"))
        #expect(text.contains("Post 2. The resolver"))
        #expect(!text.contains("Enable JavaScript"))
    }

    @Test func aProductGridBesideAShortNoticeIsTheContent() throws {
        let items = (1...16).map {
            "<li class=product><a href=/p/\($0)><img src=/i/\($0).jpg alt=\"\"></a><div class=product-caption><a href=/p/\($0)>Insulated jacket model \($0)</a>"
                + "<div class=excerpt>Warm, light and packable for cold mornings</div><span class=price>$\($0)9.00</span></div></li>"
        }.joined()
        let notice = "<section class=shipping><div class=notice><p>Orders placed before 3 PM ship the same business day, and orders placed later ship the next day. "
            + "Items marked as final sale cannot be returned or exchanged, and gift cards are excluded from every promotion on this site. "
            + "Returns are free within thirty days, in their original packaging, with the receipt.</p></div></section>"
        let html = "<html><head><title>Jackets</title></head><body><h1>Jackets</h1><div class=grid><ul class=products>\(items)</ul></div>\(notice)</body></html>"
        let readability = try SecondStrategyTests.extract(html, mode: .readability) ?? ""
        #expect(!readability.contains("Insulated jacket model 1"), "Readability takes the notice")
        let text = try #require(try SecondStrategyTests.extract(html))
        for n in 1...16 { #expect(text.contains("Insulated jacket model \(n)"), "item \(n) missing") }
        #expect(text.contains("Warm, light and packable"), "the item's caption box is its text")
    }
}
