import Foundation
import PiperTestSupport
import Testing
@testable import PiperCore

@Suite(.ownThread) struct ShareFlowInputTests {
    @Test(arguments: [
        (["https://example.com/a"], "https://example.com/a"),
        (["Read this: https://example.com/a?b=1. Thanks!"], "https://example.com/a?b=1"),
        (["no link here", "(see HTTP://Example.com/wiki/Foo_(bar))"], "HTTP://Example.com/wiki/Foo_(bar)"),
        (["/tmp/file.mp3", "https://example.com/later"], "https://example.com/later"),
        (["ftp://example.com/x", "<https://example.com/b>"], "https://example.com/b"),
    ])
    func picksTheFirstWebURL(items: [String], expected: String) {
        #expect(ShareInput(items).target == .link(URL(string: expected)!))
    }

    @Test func fallsBackToALocalFile() {
        #expect(ShareInput(["words", "/home/me/book.m4b"]).target == .file(URL(fileURLWithPath: "/home/me/book.m4b")))
        #expect(ShareInput(["file:///home/me/a.mp3"]).target == .file(URL(fileURLWithPath: "/home/me/a.mp3")))
    }

    @Test func nothingUsable() {
        #expect(ShareInput([]).target == nil)
        #expect(ShareInput(["https://", "http:// spaced", "mailto:a@b.c"]).target == nil)
    }

    @Test func xLinksAndTheirAlternates() {
        #expect(XLinks.isXLink(URL(string: "https://mobile.twitter.com/a")!))
        #expect(XLinks.isXLink(URL(string: "https://x.com/a")!))
        #expect(!XLinks.isXLink(URL(string: "https://notx.com/a")!))
        #expect(XLinks.alternate(URL(string: "https://x.com/a/status/1?s=2")!) == URL(string: "https://twitter.com/a/status/1?s=2"))
        #expect(XLinks.alternate(URL(string: "https://mobile.twitter.com/a")!) == URL(string: "https://mobile.x.com/a"))
        #expect(XLinks.alternate(URL(string: "https://example.com/")!) == nil)
    }

    @Test func contentTypeCharset() {
        #expect(ContentType.charset(of: "text/html; charset=\"Shift_JIS\"") == "Shift_JIS")
        #expect(ContentType.charset(of: "text/html") == nil)
        #expect(ContentType.mediaType(of: "Text/HTML ; charset=utf-8") == "text/html")
    }
}
