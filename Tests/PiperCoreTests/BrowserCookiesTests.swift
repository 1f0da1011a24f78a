import Foundation
import Testing
@testable import PiperCore

/// `BrowserCookies`: a browser context gets the owner's X cookies only for a link on X's own
/// hosts, and then only X's cookies that are still live.
@Suite(.ownThread) struct BrowserCookiesTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let jar = CookieJar([
        Cookie(domain: ".x.com", httpOnly: true, expires: now.addingTimeInterval(3600), name: "auth_token", value: "a"),
        Cookie(domain: ".x.com", expires: now.addingTimeInterval(3600), name: "ct0", value: "c"),
        Cookie(domain: ".twitter.com", httpOnly: true, expires: now.addingTimeInterval(3600), name: "auth_token", value: "t"),
        Cookie(domain: ".x.com", expires: now.addingTimeInterval(-1), name: "old", value: "gone"),
    ])

    static func names(_ link: String) -> [String] {
        BrowserCookies.forLoad(of: URL(string: link)!, from: jar, at: now).map { "\($0.domain) \($0.name)" }
    }

    @Test(arguments: ["https://x.com/ada/status/1", "https://mobile.x.com/ada/status/1", "https://twitter.com/ada/status/1",
                      "https://X.COM/ada", "https://x.com:8443/i/status/1"])
    func aLinkOnXGetsXsLiveCookies(link: String) {
        #expect(Self.names(link) == [".x.com auth_token", ".x.com ct0", ".twitter.com auth_token"], "\(link)")
    }

    /// Every other page, however its name resembles X's, and a mirror named in `x-hosts`.
    @Test(arguments: ["https://example.com/app", "https://x.com.evil.example/", "https://evilx.com/", "https://nitter.example/ada/status/1",
                      "https://t.co/abc", "http://localhost:8080/x.com", "https://example.com/?u=https://x.com/"])
    func anyOtherPageGetsNone(link: String) {
        #expect(Self.names(link).isEmpty, "\(link)")
    }

    @Test func theyAreSetStrictSoNoOtherSiteCanSendThem() {
        #expect(BrowserCookies.sameSite == "Strict")
    }

    /// Through the flow: a page that is not X, retried in the browser because its HTTP copy is
    /// not readerable, loads with no cookie although the X account is connected; an X link gets them.
    @Test func theFlowHandsTheBrowserXsCookiesOnlyForAnXLink() {
        var world = FakeWorld()
        world.cookies.jar = .success(xJar())
        world.extractor.readerable = false
        _ = world.run(["https://example.com/app"])
        #expect(world.calls.contains("load browser https://example.com/app cookies="), "\(world.calls)")
        var x = FakeWorld()
        x.cookies.jar = .success(xJar())
        _ = x.run(["https://x.com/someone/status/1"])
        #expect(x.calls.first == "load browser https://x.com/someone/status/1 cookies=auth_token")
    }
}
