import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperServer

/// The optional fields of `POST /save`: accepted, checked one by one, stored by every driver.
@Suite(.ownThread) struct SaveMetadataTests {
    static let full: [String: String] = [
        "title": "Full", "content": "<p>Body</p>", "sourceURL": "https://news.example.org/a/b?c=1",
        "byline": "Ada Lovelace", "siteName": "Example News", "publishedTime": "2026-03-01T09:30:00Z",
        "lang": "de-CH", "dir": "RTL", "excerpt": "A short summary.",
    ]

    /// A share the server extracted is saved from the article itself, with the same rules and
    /// the same result as the body a client would send for it (and the same refusals).
    @Test func anExtractedArticleSavesAsItsBodyWould() throws {
        let articles = [
            ExtractedArticle(title: "  Full \u{0}", content: "<p>Body</p>", sourceURL: "https://news.example.org/a", byline: " Ada ",
                             siteName: "Example", publishedTime: "2026-03-01", lang: "de-CH", dir: "RTL", excerpt: "Short."),
            ExtractedArticle(title: "Bare", content: "<p>x</p>"),
            ExtractedArticle(title: "Odd", content: "<p>x</p>", lang: "not a tag!"),
            ExtractedArticle(title: " ", content: "<p>x</p>"),
        ]
        let encoder = JSONEncoder()
        for article in articles {
            let fromBody = Result { try SaveInput(json: Array(try encoder.encode(article))) }
            let direct = Result { try SaveInput(article: article) }
            switch (fromBody, direct) {
            case (.success(let a), .success(let b)): #expect(a == b)
            case (.failure(let a as HTTPError), .failure(let b as HTTPError)): #expect(a.message == b.message && a.status == b.status)
            default: Issue.record("\(article.title): body \(fromBody), direct \(direct)")
            }
        }
        // The flat wire shape holds: a body with only title and content when nothing is known.
        let sorted = JSONEncoder()
        sorted.outputFormatting = [.sortedKeys]
        let bare = String(decoding: try sorted.encode(ExtractedArticle(title: "T", content: "C")), as: UTF8.self)
        #expect(bare == #"{"content":"C","title":"T"}"#)
        #expect(try JSONDecoder().decode(ExtractedArticle.self, from: try encoder.encode(articles[0])) == articles[0])
    }

    @Test func everyFieldIsReadFromAFlatBody() throws {
        let body = Array(try JSONSerialization.data(withJSONObject: Self.full).utf8Bytes)
        let input = try SaveInput(json: body)
        #expect(input.metadata == ArticleMetadata(sourceURL: "https://news.example.org/a/b?c=1", byline: "Ada Lovelace",
                                                  siteName: "Example News", publishedTime: "2026-03-01T09:30:00Z",
                                                  lang: "de-CH", dir: "rtl", excerpt: "A short summary."))
    }

    /// The byte-level reader and `JSONSerialization` give the same input for the same object;
    /// a `null` (which the fast path declines) reads like an absent field.
    @Test(arguments: [
        #"{"title":"T","content":"<p>x</p>","byline":"By \u00e9 \"q\"","lang":"en"}"#,
        #"{"title":"T","content":"<p>x</p>","sourceURL":"http:\/\/a.example\/p","dir":"auto","siteName":"  S  "}"#,
        #"{"title":"T","content":"<p>x</p>","excerpt":"","publishedTime":"yesterday"}"#,
    ])
    func fastPathAndFoundationAgree(body: String) throws {
        let flat = try SaveInput(json: Array(body.utf8))
        #expect(FlatJSON.stringObject(Array(body.utf8)) != nil, "the fast path should take this body")
        // The same object with one extra null field goes the Foundation way.
        let viaFoundation = try SaveInput(json: Array((String(body.dropLast()) + #","byline2":null}"#).utf8))
        #expect(flat == viaFoundation)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: String])
        #expect(flat.metadata.byline == object["byline"]?.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(flat.metadata.siteName == object["siteName"]?.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func nullOptionalFieldsAreAbsent() throws {
        let input = try SaveInput(json: Array(#"{"title":"T","content":"<p>x</p>","byline":null,"lang":null}"#.utf8))
        #expect(input.metadata == ArticleMetadata())
    }

    @Test(arguments: [
        ("sourceURL", "javascript:alert(1)", "'sourceURL'"),
        ("sourceURL", "ftp://example.org/x", "'sourceURL'"),
        ("sourceURL", "/relative/path", "'sourceURL'"),
        ("sourceURL", "https://" + String(repeating: "a", count: 2100) + ".example", "'sourceURL'"),
        ("byline", String(repeating: "b", count: 301), "'byline'"),
        ("siteName", String(repeating: "s", count: 301), "'siteName'"),
        ("excerpt", String(repeating: "e", count: 2001), "'excerpt'"),
        ("publishedTime", String(repeating: "9", count: 65), "'publishedTime'"),
        ("dir", "sideways", "'dir'"),
        ("lang", "en_US", "'lang'"),
        ("lang", "<script>", "'lang'"),
        ("lang", "toolongprimary", "'lang'"),
    ])
    func anInvalidFieldIs400NamingIt(field: String, value: String, expected: String) async throws {
        let backend = try startBackend()
        var object: [String: Any] = ["title": "T", "content": "<p>x</p>"]
        object[field] = value
        let reply = try await Client.send("POST", backend.baseURL + "/save", body: try JSONSerialization.data(withJSONObject: object))
        #expect(reply.status == 400)
        let message = try #require(try reply.json()["error"] as? String)
        #expect(message.contains(expected), "message was: \(message)")
    }

    @Test func aNonStringFieldIs400NamingIt() async throws {
        let backend = try startBackend()
        let reply = try await Client.send("POST", backend.baseURL + "/save", body: Data(#"{"title":"T","content":"x","byline":7}"#.utf8))
        #expect(reply.status == 400)
        #expect((try reply.json()["error"] as? String)?.contains("'byline' must be a string") == true)
    }

    @Test(arguments: Driver.available)
    func metadataReadsBackFromEveryDriver(driver: Driver) throws {
        let (store, cleanup) = try makeStore(driver)
        defer { cleanup() }
        var saved = article()
        saved.metadata = ArticleMetadata(sourceURL: "https://example.org/ü", byline: "Bý", siteName: nil,
                                         publishedTime: "2026-01-01", lang: "ar", dir: "rtl", excerpt: "E")
        try store.insert(saved)
        #expect(try store.article(id: saved.id, now: saved.createdAt) == saved)
        let bare = article()
        try store.insert(bare)
        #expect(try store.article(id: bare.id, now: bare.createdAt)?.metadata == ArticleMetadata())
    }
}

extension Data {
    var utf8Bytes: [UInt8] { [UInt8](self) }
}
