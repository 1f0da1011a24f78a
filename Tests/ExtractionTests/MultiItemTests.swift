@testable import Extraction
import Foundation
import HTML
import PiperTestSupport
import Testing

/// Pages of many items (a shop's grid, a blog's list of posts, a forum thread): the items are
/// the content, not the one box or the one post Readability scores highest.
@Suite(.ownThread) struct MultiItemTests {
    static func extract(_ html: String, mode: ExtractionMode = .piper) throws -> String {
        let document = Document.parse(html, options: ArticlePipeline.parseOptions())
        return try Extraction.extract(document, url: "https://example.org/list", mode: mode)?.textContent ?? ""
    }

    static func card(_ n: Int) -> String {
        "<div class=\"col-md-4 product\"><a href=/p/\(n)>Walnut desk shelf model \(n)</a><div>$ \(n + 40)</div></div>"
    }

    /// ASP.NET pages wrap the whole body in one `<form>`: a form that holds half the page is
    /// the page, and the grid inside it is a listing like any other; a small form's list (a
    /// search form's suggestions) is still furniture.
    @Test func aGridInsideAFormWrappingThePageIsAListing() throws {
        let cards = (1...16).map(Self.card).joined()
        let page = "<html><body><form id=aspnetForm method=post><div class=notice><p>Free shipping all spring long.</p></div>"
            + "<div class=\"product-list row\">\(cards)</div></form></body></html>"
        let survey = Survey(Document.parse(page, options: ArticlePipeline.parseOptions()), tuning: .standard)
        #expect(survey.bestRepeats().listing?.parent.className == "product-list row")
        let suggestions = (1...6).map { "<li class=hint><a href=/s/\($0)>Suggested search number \($0)</a></li>" }.joined()
        let prose = (1...6).map { "<p>Paragraph \($0) of the page says, in a long sentence, what the page is about and why.</p>" }.joined()
        let small = "<html><body><div class=text>\(prose)</div><form class=search><ul class=hints>\(suggestions)</ul></form></body></html>"
        #expect(Survey(Document.parse(small, options: ArticlePipeline.parseOptions()), tuning: .standard).bestRepeats().listing == nil)
    }

    static func entry(_ n: Int) -> String {
        "<article class=\"card post-\(n) post type-post status-publish hentry category-news tag-rockets tag-space\">"
            + "<h2><a href=/story/\(n)>Story number \(n) about the launch</a></h2>"
            + "<p>The teaser of story \(n) tells in a sentence or two what happened at the launch site.</p></article>"
    }

    /// WordPress names every listed post for its tags and categories (`tag-rockets`); a post
    /// named `hentry` is a post, not a tag list. A tag list keeps its furniture name.
    @Test func postsNamedForTheirTagsStay() throws {
        let entries = (1...8).map(Self.entry).joined()
        let html = "<html><body><div id=river><h1>Latest news</h1>\(entries)"
            + "<div class=\"tag-list\"><a href=/t/a>alpha</a> <a href=/t/b>beta</a> <a href=/t/c>gamma</a></div></div></body></html>"
        let document = Document.parse(html, options: ArticlePipeline.parseOptions())
        let root = try #require(document.node.querySelector("#river"))
        _ = Classifier.clean(root, normalizedTitle: nil, tuning: .standard)
        let text = root.textContent
        for n in [1, 4, 8] { #expect(text.contains("The teaser of story \(n)"), "story \(n) missing") }
        #expect(!text.contains("gamma"))
    }

    static func post(_ n: Int, words: Int, header: Bool) -> String {
        let body = (0..<words).map { "word\($0 % 17)" }.joined(separator: " ")
        let head = header ? "<div class=msg-user><a href=/u/\(n)>poster\(n)</a> <time datetime=2026-03-0\(n)>March \(n)</time></div>" : ""
        return "<div class=msg>\(head)<div class=msg-words><p>Post \(n) says: \(body).</p><br></div></div>"
    }

    static func thread(headers: Bool) -> String {
        let posts = Self.post(1, words: 140, header: headers) + (2...6).map { Self.post($0, words: 8, header: headers) }.joined()
        return "<html><head><title>Thread</title></head><body><div class=wrapper><div class=thread>\(posts)</div></div></body></html>"
    }

    /// Readability takes the long first post; the replies (each with its poster and date) are
    /// under half as long again, and still the content.
    @Test func aThreadHoldingReadabilitysOnePostIsTheContent() throws {
        let html = Self.thread(headers: true)
        let readability = try Self.extract(html, mode: .readability)
        #expect(!readability.contains("Post 4 says"), "Readability keeps one post")
        let text = try Self.extract(html)
        for n in 1...6 { #expect(text.contains("Post \(n) says"), "post \(n) missing") }
        #expect(text.contains("poster3"))
    }

    /// The same boxes without posters or dates are an article's sections: the choice stays
    /// with Readability.
    @Test func sectionsWithoutPostHeadersAreNoThread() throws {
        let html = Self.thread(headers: false)
        let readability = try Self.extract(html, mode: .readability)
        #expect(!readability.contains("Post 4 says"), "Readability keeps one section")
        #expect(!(try Self.extract(html)).contains("Post 4 says"))
    }

    /// A box of prose outside the page's `<main>` (Readability's pick) gives way to the main
    /// element also when the main element is itself the parent of repeated items (the repeat
    /// and the main element are two alternatives of one node).
    @Test func aMainElementWhoseChildrenRepeatStillStandsForIt() throws {
        let entries = (1...9).map {
            "<div class=entry><span>Entry \($0) of the board lists the opening hours of the hall and the name of its keeper</span></div>"
        }.joined()
        let box = "<div class=box><h3>Notes</h3><p>" + (1...120).map { "clause \($0)" }.joined(separator: ", ") + ", and that is all.</p></div>"
        let html = "<html><head><title>Board</title></head><body>\(box)<main>\(entries)</main></body></html>"
        let readability = try Self.extract(html, mode: .readability)
        #expect(!readability.contains("Entry 3 of the board"), "Readability takes the box")
        let text = try Self.extract(html)
        for n in 1...9 { #expect(text.contains("Entry \(n) of the board"), "entry \(n) missing") }
        #expect(!text.contains("clause 12"))
    }

    /// A card's second link to its story (the teaser, hidden from screen readers only so they
    /// do not read the link twice) is on the screen and stays; other `aria-hidden` boxes go.
    @Test func aTeaserLinkHiddenFromScreenReadersStays() throws {
        let cards = (1...8).map {
            "<article class=river><h2><a href=/s/\($0)>Headline \($0)</a></h2><p><a href=/s/\($0) aria-hidden=true tabindex=-1>"
                + "Teaser \($0) tells what the story is about in one plain sentence.</a></p>"
                + "<div aria-hidden=true>Decoration \($0)</div></article>"
        }.joined()
        let html = "<html><head><title>Topic</title></head><body><main><h1>Topic</h1><div class=river-list>\(cards)</div></main></body></html>"
        let text = try Self.extract(html)
        for n in [1, 5, 8] { #expect(text.contains("Teaser \(n) tells"), "teaser \(n) missing") }
        #expect(!text.contains("Decoration 3"))
    }
}
