import Extraction
import Foundation
import HTML
import PiperTestSupport
import Testing

/// Product and service pages: the customers' reviews under a product the page declares are not
/// its description, and closed tabs and accordion folds are part of the page.
@Suite(.ownThread) struct ProductPageTests {
    static let description = "<div class=description><h1>Trail pack</h1>"
        + "<p>Keep the day's gear within easy reach in a pack that fits a wide range of body types and loads.</p>"
        + "<p>The ripstop nylon body has a water-repellent finish, and the recycled bottom resists abrasion on rock.</p>"
        + "<p>A U-shaped zip panel opens the whole main compartment, and the lid pocket holds keys and a phone.</p>"
        + "<p>The padded back panel breathes on warm climbs, and the hip belt carries most of the weight off the shoulders.</p>"
        + "<p>Side pockets take a one-litre bottle each, and a sleeve inside holds a three-litre reservoir with its hose.</p>"
        + "<p>Loops on the front carry poles or an axe, and compression straps keep a half-empty pack from swaying.</p>"
        + "</div>"
    /// A quarter of the text (a box holding more than 30% of it is content whatever its name).
    static let reviews = "<div class=product-reviews>"
        + (1...2).map { "<div class=review-item><p>Review \($0): I carried this on a long hike and it stayed comfortable all day, even when the straps were loaded with water.</p></div>" }.joined()
        + "</div>"

    static func extract(_ html: String) throws -> String {
        let document = Document.parse(html, options: ArticlePipeline.parseOptions())
        return try Extraction.extract(document, url: "https://example.org/pack", mode: .piper)?.textContent ?? ""
    }

    static func page(head: String, body: String) -> String {
        "<html><head><title>Trail pack</title>\(head)</head><body><main>\(body)</main></body></html>"
    }

    static let productSchema = #"<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Trail pack"}</script>"#

    @Test(arguments: [productSchema, #"<meta property="og:type" content="product">"#])
    func aProductPageLeavesItsReviewsOut(head: String) throws {
        let text = try Self.extract(Self.page(head: head, body: Self.description + Self.reviews))
        #expect(text.contains("ripstop nylon body"))
        #expect(!text.contains("Review 2"))
    }

    @Test func aSectionOfPraiseInsideTheTextStays() throws {
        let praise = "<section class=section-reviews><h2>Praised by experts</h2>"
            + "<p>Reviewers call it the lightest pack of its size, and it won the outdoor award two years running.</p></section>"
        let half = Self.description.split(separator: "<p>The padded").map(String.init)
        let body = half[0] + praise + "<p>The padded" + half[1]
        let text = try Self.extract(Self.page(head: Self.productSchema, body: body))
        #expect(text.contains("outdoor award two years running"))
        #expect(text.contains("compression straps"))
    }

    @Test func aBoxMicrodataCallsTheDescriptionIsNoCaption() throws {
        let caption = "<div class=item-caption itemprop=description><h3>Features</h3><p>\(Self.declared)</p></div>"
        let body = Self.description.replacingOccurrences(of: "<p>The padded", with: caption + "<p>The padded")
        let text = try Self.extract(Self.page(head: "", body: body))
        #expect(text.contains("honeycomb arch support"))
        let named = try Self.extract(Self.page(head: "", body: body.replacingOccurrences(of: " itemprop=description", with: "")))
        #expect(!named.contains("honeycomb arch support"), "a caption-named box without the property is a caption")
    }

    @Test func reviewsOnAPageThatDeclaresNoProductStay() throws {
        let text = try Self.extract(Self.page(head: "", body: Self.description + Self.reviews))
        #expect(text.contains("ripstop nylon body"))
        #expect(text.contains("Review 2"), "a review article's reviews are its text")
    }

    static let answers = [
        "The plan covers accidents and illnesses from the first day, and routine care can be added for a small fee each month.",
        "A claim is paid within ten days of the vet's invoice, and you can file it online or by post with the same form.",
        "Pets of any age can join, though the price rises with age and some breeds pay more for hip and knee cover.",
    ]

    /// An accordion whose folds are hidden until a header opens them.
    static func accordion(_ fold: (Int, String) -> String) -> String {
        "<h2>Common questions</h2><div class=faq>"
            + answers.enumerated().map { i, answer in
                "<div class=item><button aria-controls=fold\(i) aria-expanded=false>Question \(i)</button>" + fold(i, answer) + "</div>"
            }.joined() + "</div>"
    }

    @Test(arguments: [
        "<div id=fold%d class=answer aria-hidden=true aria-labelledby=q%d><p>%@</p></div>",
        "<div id=fold%d class=accordion-body hidden data-q=%d><p>%@</p></div>",
        "<section id=x%d role=tabpanel aria-labelledby=tab%d style=\"display: none\"><p>%@</p></section>",
        "<div class=collapse style=\"overflow: hidden; display: none\"><div id=fold%d role=region aria-labelledby=q%d><p>%@</p></div></div>",
    ])
    func closedFoldsAreShown(template: String) throws {
        let body = Self.description + Self.accordion { i, answer in String(format: template, i, i, answer) }
        let text = try Self.extract(Self.page(head: "", body: body))
        #expect(text.contains("ripstop nylon body"))
        for answer in Self.answers { #expect(text.contains(answer)) }
    }

    @Test func hiddenBoxesNoControlNamesStayHidden() throws {
        let body = Self.description + Self.accordion { i, answer in "<div id=other\(i) aria-hidden=true aria-labelledby=q\(i)><p>\(answer)</p></div>" }
        let text = try Self.extract(Self.page(head: "", body: body))
        #expect(text.contains("ripstop nylon body"))
        for answer in Self.answers { #expect(!text.contains(answer)) }
    }

    @Test func aPopUpsTabsStayClosed() throws {
        let popup = "<div popover id=help><div role=tablist><button aria-controls=t1>One</button><button aria-controls=t2>Two</button></div>"
            + "<div id=t1 role=tabpanel aria-labelledby=b1 hidden><p>\(Self.answers[0])</p></div>"
            + "<div id=t2 role=tabpanel aria-labelledby=b2 hidden><p>\(Self.answers[1])</p></div></div>"
        let text = try Self.extract(Self.page(head: "", body: Self.description + popup))
        #expect(text.contains("ripstop nylon body"))
        #expect(!text.contains(Self.answers[0]))
    }

    static let declared = "Quarter socks engineered for comfort: a honeycomb arch support, a seamless toe and stay-up cuffs that keep them where you want them all day."

    static func schema(description: String) -> String {
        #"<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Quarter socks","description":"\#(description)"}</script>"#
    }

    /// The page's visible text is about shipping and sizes; the description is in a block the
    /// saved page never rendered.
    static let shippingText = "<div class=info><h1>Quarter socks</h1>"
        + (1...5).map { "<p>Point \($0): orders over fifty dollars ship free, and returns are accepted within thirty days of delivery.</p>" }.joined()
        + "</div>"

    @Test func aDeclaredDescriptionTheTextLacksComesFirst() throws {
        let text = try Self.extract(Self.page(head: Self.schema(description: "<p>" + Self.declared + "</p>"), body: Self.shippingText))
        #expect(text.hasPrefix(Self.declared))
        #expect(text.contains("Point 5: orders over fifty dollars"))
    }

    @Test func aDescriptionTheTextHoldsIsNotRepeated() throws {
        let body = "<div class=description><p>\(Self.declared)</p></div>" + Self.shippingText
        let text = try Self.extract(Self.page(head: Self.schema(description: Self.declared), body: body))
        #expect(text.components(separatedBy: "honeycomb arch support").count == 2)
    }

    @Test func aShortDescriptionIsATagLine() throws {
        let text = try Self.extract(Self.page(head: Self.schema(description: "Comfortable socks."), body: Self.shippingText))
        #expect(!text.contains("Comfortable socks."))
    }
}
