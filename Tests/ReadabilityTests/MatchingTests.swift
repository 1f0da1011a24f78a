@testable import Readability
import PiperTestSupport
import Testing

/// Each predicate against the Readability.js pattern it replaces: cases that match and
/// cases that must not.
@Suite(.ownThread) struct MatchingTests {
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
        let accepted = ["http://example.com/a/b.html?x=1#f", "https://cdn.test/x.png", "http://a.b/"]
        let rejected = ["http://Example.com/a", "http://example.com", "http://example.com:80/", "http://e.com/a/../b",
                        "http://e.com/a b", "http://e.com/%7e", "https://e.com/it's", "HTTP://e.com/", "http://e.com/."]
        for s in accepted {
            #expect(ResolvedURL.isCanonicalHTTP(s), "\(s)")
            #expect(ResolvedURL.parse(s, base: base)?.href == s, "\(s)")
        }
        for s in rejected { #expect(!ResolvedURL.isCanonicalHTTP(s), "\(s)") }
    }
}
