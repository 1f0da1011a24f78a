import Foundation
import PiperTestSupport
import Testing
@testable import PiperCore

@Suite(.ownThread) struct CookieTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let future = 1_900_000_000
    let past = 1_700_000_000

    func file(_ lines: [String]) -> String {
        (["# Netscape HTTP Cookie File", "# https://curl.se/docs/http-cookies.html", ""] + lines).joined(separator: "\n") + "\n"
    }

    @Test func importsAGoodFileKeepingOnlyXCookies() throws {
        let text = file([
            "#HttpOnly_.x.com\tTRUE\t/\tTRUE\t\(future)\tauth_token\tabc123",
            ".x.com\tTRUE\t/\tTRUE\t\(future + 10)\tct0\tcsrf",
            ".twitter.com\tTRUE\t/\tTRUE\t0\tguest_id\tv1",
            ".example.com\tTRUE\t/\tFALSE\t\(future)\tsession\tnope",
            "#HttpOnly_accounts.google.com\tFALSE\t/\tTRUE\t\(future)\tSID\tnope",
        ])
        let imported = try CookieImport.make(from: text, path: "cookies.txt", now: now)
        #expect(imported.jar.cookies.map(\.name) == ["auth_token", "ct0", "guest_id"])
        #expect(imported.droppedNonX == 2)
        #expect(imported.jar.cookies[0].httpOnly)
        #expect(imported.jar.cookies[0].domain == ".x.com")
        #expect(imported.jar.cookies[2].expires == nil)
        #expect(imported.jar.isConnected(at: now))
        let summary = imported.summary(at: now)
        #expect(summary.contains("kept 3 X/Twitter cookies"))
        #expect(summary.contains("2030-03-17"))  // 1_900_000_000
    }

    @Test func malformedLineIsNamed() {
        let text = file([".x.com\tTRUE\t/\tTRUE\t\(future)\tauth_token\tabc", ".x.com TRUE / TRUE 0 ct0 x"])
        #expect(throws: CookieFileError.malformedLine(5, "expected 7 tab-separated fields, found 1")) {
            try CookieImport.make(from: text, path: "c.txt", now: now)
        }
        let badExpiry = file([".x.com\tTRUE\t/\tTRUE\tsoon\tauth_token\tabc"])
        #expect((try? CookieImport.make(from: badExpiry, path: "c.txt", now: now)) == nil)
        do {
            _ = try CookieImport.make(from: badExpiry, path: "c.txt", now: now)
        } catch let error as CookieFileError {
            #expect(error.description.contains("line 4"))
            #expect(error.category == .badData)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func expiredCookiesDoNotConnect() throws {
        let text = file([".x.com\tTRUE\t/\tTRUE\t\(past)\tauth_token\told", ".x.com\tTRUE\t/\tTRUE\t\(past)\tct0\told"])
        #expect(throws: CookieFileError.allExpired("c.txt", 2)) { try CookieImport.make(from: text, path: "c.txt", now: now) }
        let jar = try CookieJar(NetscapeCookies.parse(text))
        #expect(!jar.isConnected(at: now))
        let mixed = file([".x.com\tTRUE\t/\tTRUE\t\(past)\tauth_token\told", ".x.com\tTRUE\t/\tTRUE\t\(future)\tct0\tnew"])
        let imported = try CookieImport.make(from: mixed, path: "c.txt", now: now)
        #expect(imported.jar.cookies.map(\.name) == ["ct0"])
        #expect(imported.droppedExpired == 1)
    }

    @Test func onlyNonXCookiesIsAnError() {
        let text = file([".example.com\tTRUE\t/\tFALSE\t\(future)\tsid\tv"])
        #expect(throws: CookieFileError.noXCookies("c.txt")) { try CookieImport.make(from: text, path: "c.txt", now: now) }
    }

    @Test func roundTripsThroughTheFileFormat() throws {
        let cookies = [
            Cookie(domain: ".x.com", includeSubdomains: true, path: "/", secure: true, httpOnly: true,
                   expires: Date(timeIntervalSince1970: TimeInterval(future)), name: "auth_token", value: "a=b"),
            Cookie(domain: "twitter.com", includeSubdomains: false, path: "/i", secure: false, name: "lang", value: ""),
        ]
        #expect(try NetscapeCookies.parse(NetscapeCookies.serialize(cookies)) == cookies)
    }

    @Test func domainMatching() {
        let dotted = Cookie(domain: ".x.com", name: "a", value: "1")
        #expect(dotted.matches(host: "x.com"))
        #expect(dotted.matches(host: "api.x.com"))
        #expect(!dotted.matches(host: "notx.com"))
        let exact = Cookie(domain: "x.com", includeSubdomains: false, name: "a", value: "1")
        #expect(!exact.matches(host: "api.x.com"))
        let jar = CookieJar([dotted, Cookie(domain: ".twitter.com", name: "b", value: "2")])
        #expect(jar.cookies(for: "x.com", at: now).map(\.name) == ["a"])
    }

    @Test func crlfAndEmptyValuesParse() throws {
        let text = ".x.com\tTRUE\t/\tTRUE\t0\tempty\t\r\n.x.com\tTRUE\t/\tTRUE\t0\tsix\r\n"
        let cookies = try NetscapeCookies.parse(text)
        #expect(cookies.map(\.name) == ["empty", "six"])
        #expect(cookies.allSatisfy { $0.value.isEmpty })
    }
}
