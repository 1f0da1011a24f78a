@testable import Readability
import HTML
import PiperTestSupport
import Testing

/// Each predicate against the Readability.js pattern it replaces: cases that match and
/// cases that must not.
@Suite(.ownThread) struct MatchingTests {
    /// `replace(/\./g, ":")` on meta names: every full stop, also next to non-ASCII text.
    @Test func metaNameFullStops() {
        #expect(JSString.dotsToColons("dc.title") == "dc:title")
        #expect(JSString.dotsToColons("twitter.card.é.x") == "twitter:card:é:x")
        #expect(JSString.dotsToColons("description") == "description")
        #expect(JSString.dotsToColons("") == "")
    }

    /// `_textSimilarity`: the share of the second text's words (joined by spaces) the first
    /// also has; the title's version finds the title's words once and answers the same.
    @Test func textSimilarityOfWords() {
        let reader = Readability(Document.parse("<p>x</p>"))
        #expect(reader.textSimilarity("Hello World", "hello, world again") == 1 - 5.0 / 17.0)
        #expect(reader.textSimilarity("a b", "c d") == 0)
        #expect(reader.textSimilarity("", "anything") == 0)
        #expect(reader.textSimilarity("Same words", "same WORDS") == 1)
        for title in ["Hello World", "", "Über den Fluss – ein Bericht"] {
            reader.articleTitle = title
            for heading in ["hello, world again", "Über den Fluss", "", "nothing here"] {
                #expect(reader.titleSimilarity(heading) == reader.textSimilarity(title, heading), "\(title) / \(heading)")
            }
        }
    }

    @Test func unlikelyCandidates() {
        for s in ["site-header", "Sidebar-left", "comment-list", "x-ad-y", "GDPR banner", "pager "] {
            #expect(Matching.isUnlikelyCandidate(s), "\(s)")
        }
        for s in ["article-body", "main", "", "story", "adverts"] { #expect(!Matching.isUnlikelyCandidate(s), "\(s)") }
    }

    @Test func okMaybeItsACandidate() {
        for s in ["sidebar-and-main", "ArticleFooter", "contentfooter", "SHADOW", "MathJax CtxtMenu_Attached_0"] { #expect(Matching.isOkMaybeItsACandidate(s)) }
        #expect(!Matching.isOkMaybeItsACandidate("footer comments"))
    }

    @Test func positiveAndNegative() {
        for s in ["entry-content", "h-entry", "BlogPost", "story"] { #expect(Matching.isPositive(s)) }
        for s in ["nav", "x", ""] { #expect(!Matching.isPositive(s)) }
        for s in ["hidden", "hid", "a hid", "hid b", "a hid b", "share-bar", "com-1", "WIDGET", "-ad-slot"] {
            #expect(Matching.isNegative(s), "\(s)")
        }
        for s in ["hide", "hidx", "ahid", "hid-x", "content", "footnote"] { #expect(!Matching.isNegative(s), "\(s)") }
    }

    @Test func bylineAndShare() {
        for s in ["byline", "post-author", "dateline x", "writtenBy"] { #expect(Matching.isByline(s)) }
        #expect(!Matching.isByline("authr"))
        for s in ["share", "post_share", "share-tools", "sharedaddy", "x sharedaddy_y", "SHARE"] {
            #expect(Matching.isShareElement(s), "\(s)")
        }
        for s in ["shared", "shares", "timeshare", "sharedaddyx", "snare"] { #expect(!Matching.isShareElement(s), "\(s)") }
    }

    @Test func videos() {
        for s in ["https://www.youtube.com/embed/x", "//player.vimeo.com/video/1", "http://v.qq.com/x",
                  "https://upload.wikimedia.org/a.webm", "https://player.twitch.tv/?v=1", "//WWW.YouTube-NoCookie.com/e"] {
            #expect(Matching.isAllowedVideo(s), "\(s)")
        }
        for s in ["https://vimeo.com/1", "youtube.com/x", "https://evil.com/?u=youtube", "https://www.dailymotion.org"] {
            #expect(!Matching.isAllowedVideo(s), "\(s)")
        }
    }

    @Test func adAndLoadingWords() {
        for s in ["Ad", "advertisement", "Publicité", "Werbung", "广告", "Реклама", "anuncio"] { #expect(Matching.isAdWords(s), "\(s)") }
        for s in ["ads", "an ad", "advert"] { #expect(!Matching.isAdWords(s), "\(s)") }
        for s in ["Loading", "loading...", "Loading…", "Загрузка", "cargando"] { #expect(Matching.isLoadingWords(s), "\(s)") }
        for s in ["loading.", "now loading", "loaded"] { #expect(!Matching.isLoadingWords(s), "\(s)") }
    }

    @Test func imageAttributes() {
        #expect(Matching.hasImageExtension("photo.JPG"))
        #expect(Matching.hasImageExtension("a.webp?x=1"))
        #expect(!Matching.hasImageExtension("jpg"))
        #expect(Matching.looksLikeSrcset("a.jpg 1x, b.jpg 2x"))
        #expect(!Matching.looksLikeSrcset("a.jpg, b.jpg"))
        #expect(Matching.looksLikeImageURL(" https://x/y.png?w=1 "))
        #expect(!Matching.looksLikeImageURL("a.png b.png"))
        #expect(!Matching.looksLikeImageURL(".png"))
    }

    @Test func hashURLsAndCommas() {
        #expect(Matching.isHashURL("#top"))
        #expect(!Matching.isHashURL("#"))
        #expect(!Matching.isHashURL("/a#b"))
        #expect(Matching.commaSplitCount("a, b，c、d") == 3)
        #expect(Matching.commaSplitCount("none") == 1)
    }

    @Test func jsStrings() {
        #expect(JSString.trim("\u{A0} a b \n") == "a b")
        #expect(JSString.normalize("a  b\nc \t d") == "a b\nc d")
        #expect(JSString.wordCount(" a b ") == 4)
        #expect(JSString.wordCount("") == 1)
        #expect(JSString.length("😀") == 2)
        #expect(JSString.tokenize("Hello, World! é") == ["hello", "world"])
    }

    @Test func metaPatterns() {
        #expect(Readability.matchMetaProperty("og:title") == "og:title")
        #expect(Readability.matchMetaProperty("fb:app og : Site_Name") == "og:site_name")
        #expect(Readability.matchMetaProperty("dcterm:creator") == "dcterm:creator")
        #expect(Readability.matchMetaProperty("og:image") == nil)
        #expect(Readability.matchesMetaName("dc.creator"))
        #expect(Readability.matchesMetaName(" Twitter:Title "))
        #expect(Readability.matchesMetaName("weibo:article:description"))
        #expect(Readability.matchesMetaName("parsely-pub-date"))
        #expect(!Readability.matchesMetaName("keywords"))
        #expect(!Readability.matchesMetaName("og:image"))
    }

    @Test func jsonLDTypesAndEntities() {
        #expect(Readability.isJSONLDArticleType("NewsArticle"))
        #expect(Readability.isJSONLDArticleType("ArticleX"))
        #expect(!Readability.isJSONLDArticleType("WebPage"))
        #expect(Readability.unescapeHtmlEntities("&amp;#39; &lt;b&gt; &#x41;&#66;&#0;") == "' <b> AB\u{FFFD}")
        #expect(Readability.isURL("https://example.com/a"))
        #expect(!Readability.isURL("John Smith"))
    }

    @Test func srcsetRewrite() {
        let out = Readability.rewriteSrcset("a.jpg 1x, /b.jpg 2x") { "X" + $0 }
        #expect(out == "Xa.jpg 1x, X/b.jpg 2x")
        #expect(Readability.rewriteSrcset("a.jpg,b.jpg") { "X" + $0 } == "Xa.jpg,b.jpg")
    }

    @Test func urlResolution() throws {
        let base = try #require(ResolvedURL.parse("http://fakehost/test/page.html"))
        func r(_ s: String) -> String? { ResolvedURL.parse(s, base: base)?.href }
        #expect(r("foo/bar.png") == "http://fakehost/test/foo/bar.png")
        #expect(r("../x") == "http://fakehost/x")
        #expect(r("/a b") == "http://fakehost/a%20b")
        #expect(r("//other.com") == "http://other.com/")
        #expect(r("?q=1") == "http://fakehost/test/page.html?q=1")
        #expect(r("#frag") == "http://fakehost/test/page.html#frag")
        #expect(r("HTTPS://Example.COM:443/x") == "https://example.com/x")
        #expect(r("mailto:a@b.c") == "mailto:a@b.c")
    }
}

@Suite(.ownThread) struct FileURLTests {
    @Test func driveLetters() throws {
        let base = try #require(ResolvedURL.parse("http://fakehost/test/page.html"))
        #expect(ResolvedURL.parse("file:///C|/Documents%20and/a.gif", base: base)?.href == "file:///C:/Documents%20and/a.gif")
        #expect(ResolvedURL.parse("file:///home/x.html", base: base)?.href == "file:///home/x.html")
    }
}

@Suite(.ownThread) struct CanonicalURLTests {
    /// The fast path must only accept what the full resolver leaves unchanged.
    @Test func fastPathAgreesWithTheResolver() throws {
        let base = try #require(ResolvedURL.parse("http://fakehost/test/page.html"))
        let accepted = ["http://example.com/a/b.html?x=1#f", "https://cdn.test/x.png", "http://a.b/", "http://e.com/%7e"]
        let rejected = ["http://Example.com/a", "http://example.com", "http://example.com:80/", "http://e.com/a/../b",
                        "http://e.com/a b", "http://e.com/a/%2E/b", "https://e.com/it's", "HTTP://e.com/", "http://e.com/."]
        for s in accepted {
            #expect(ResolvedURL.isCanonicalHTTP(s), "\(s)")
            #expect(ResolvedURL.parse(s, base: base)?.href == s, "\(s)")
        }
        for s in rejected { #expect(!ResolvedURL.isCanonicalHTTP(s), "\(s)") }
    }
}

@Suite(.ownThread) struct URLFastPathTests {
    static let bases = ["http://fakehost/test/page.html", "https://example.com/", "https://example.com/a/b/?q=1#top",
                        "http://user@h.example:8080/dir/file"]
    /// References chosen to sit at each fast path's edges: every one resolves as the full parse does.
    static let references = [
        "/a/b", "/a/b?x=1#f", "/", "/?q", "/#f", "/a/./b", "/a/../b", "/a/%2e/b", "/a/%2E%2e/", "/a%20b", "/a b", "/a\\b",
        "//cdn.example/x.png", "//CDN.example/x", "//h:80/x", "//h", "///x", "//h/./x", "//u@h/x",
        "page.html", "./page.html", "./", ".", "..", "../x", "./../x", "a/./b", "a/%2e%2e/b", "a?b#c", "./?x", "./#f",
        "?q=1", "#frag", "", "x:y", "page:1", "mailto:a@b.example", "data:image/gif;base64,R0lGOD==", "data:text/plain,a b",
        "tel:+1-555", "foo://host/x", "foo:/x", "Mailto:a@b", "javascript:void(0)", "http:x", "https:/x", "ftp://h/x",
        "ws:x", "file:///etc/x", "a:b/c", "a/b:c", "c.d:e", "1a:b", "%7e/x", "/x?a'b", "/x#a`b", "/x?a\"b", "/é", "é.html",
        "/x\t/y", " /x", "/x ", "/a/b?c/../d", "/a/b#c/./d",
    ]

    @Test func fastPathsResolveAsTheFullParse() throws {
        for baseString in Self.bases {
            let base = try #require(ResolvedURL.parse(baseString))
            for reference in Self.references {
                #expect(ResolvedURL.resolve(reference, base: base) == ResolvedURL.parse(reference, base: base)?.href,
                        "\(reference.debugDescription) against \(baseString)")
            }
        }
    }

    @Test func eachReferenceTakesTheExpectedPath() throws {
        let base = try #require(ResolvedURL.parse("http://fakehost/test/page.html"))
        func path(_ s: String) -> ResolvedURL.FastPath {
            var s = s
            return s.withUTF8 { ResolvedURL.fastPath(for: $0, against: base) }
        }
        #expect(path("https://e.com/x") == .unchanged)
        #expect(path("data:image/gif;base64,R0lGOD==") == .unchanged)
        #expect(path("/a/b?x") == .onOrigin)
        #expect(path("//cdn.example/x") == .onScheme)
        #expect(path("b.html") == .inDirectory(skip: 0))
        #expect(path("./b.html") == .inDirectory(skip: 2))
        for slow in ["../b", "/a/./b", "//H/x", "Mailto:x", "http:x", "?q", "#f", "/a b"] { #expect(path(slow) == .none, "\(slow)") }
        #expect(ResolvedURL.resolve("./b.html?x#y", base: base) == "http://fakehost/test/b.html?x#y")
        #expect(ResolvedURL.resolve("/x/y", base: base) == "http://fakehost/x/y")
    }

    /// Every link and image URL of the Mozilla corpus, against the page URL the corpus uses.
    @Test func corpusReferencesResolveAsTheFullParse() throws {
        let base = try #require(ResolvedURL.parse(Corpus.pageURL))
        var compared = 0
        var mismatches: [String] = []
        for page in try Corpus.cases() {
            let doc = Corpus.parse(page.source)
            for node in doc.node.descendants where node.isElement {
                for name in ["href", "src", "poster"] {
                    guard let value = node.getAttribute(name) else { continue }
                    compared += 1
                    if ResolvedURL.resolve(value, base: base) != ResolvedURL.parse(value, base: base)?.href, mismatches.count < 5 {
                        mismatches.append("\(page.name): \(value.debugDescription)")
                    }
                }
            }
        }
        #expect(compared > 5_000)
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }
}
