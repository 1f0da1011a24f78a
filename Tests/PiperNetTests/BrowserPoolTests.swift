import Foundation
import PiperCore
import PiperTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import PiperNet

/// The server's one long-lived headless Chromium (real Chromium, pages from a local server):
/// reused by every load in a tab and a browser context of its own, at most `maxTabs` at once,
/// and started again after it died under a load, which fails with the reason.
@Suite(.ownThread, .timeLimit(.minutes(3)),
       .enabled(if: BrowserPageLoader.find() != nil || ProcessInfo.processInfo.environment["CI"] != nil, "chromium is not installed"))
struct BrowserPoolTests {
    static let article = "<html><head><title>Pooled</title></head><body><article><h1>Pooled</h1>"
        + String(repeating: "<p>A paragraph long enough to be read as the body of an article, with commas, and clauses.</p>", count: 8)
        + "<p id=cookies></p><script>document.getElementById('cookies').textContent = 'cookies: ' + document.cookie;</script></article></body></html>"

    func pool(maxTabs: Int = 2) throws -> BrowserPool {
        var loader = try #require(BrowserPageLoader.system(), "chromium is required under CI")
        loader.timeout = 30
        loader.settle = 0.05
        loader.minimumTextLength = 100
        return BrowserPool(loader: loader, maxTabs: maxTabs)
    }

    @Test func oneBrowserServesEveryLoadEachInATabOfItsOwn() throws {
        let site = try TestHTTPServer(routes: ["/a": .html(Self.article), "/b": .html(Self.article)])
        let pool = try pool()
        defer { pool.stop() }
        let cookie = Cookie(domain: "127.0.0.1", expires: Date().addingTimeInterval(3600), name: "sid", value: "first")
        let first = try pool.load(site.url("/a"), cookies: [cookie])
        #expect(String(decoding: first.body, as: UTF8.self).contains("cookies: sid=first"))
        let browser = try #require(pool.processID)
        let second = try pool.load(site.url("/b"), cookies: [])
        #expect(String(decoding: second.body, as: UTF8.self).contains("A paragraph long enough"))
        #expect(!String(decoding: second.body, as: UTF8.self).contains("sid=first"), "each load's cookies stay in its own context")
        #expect(pool.starts == 1 && pool.processID == browser, "the same browser served both")

        // Three at once through two tabs: all load.
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 3) { index in
            results.add((try? pool.load(site.url(index % 2 == 0 ? "/a" : "/b"), cookies: [])) != nil)
        }
        #expect(results.all == [true, true, true])
        #expect(pool.starts == 1)
    }

    @Test func aBrowserKilledDuringALoadFailsItAndTheNextLoadStartsANewOne() throws {
        let site = try TestHTTPServer(routes: ["/slow": TestHTTPServer.Route(body: Self.article, delay: 20), "/fast": .html(Self.article)])
        let pool = try pool()
        defer { pool.stop() }
        _ = try pool.load(site.url("/fast"), cookies: [])
        let browser = try #require(pool.processID)
        let outcome = Results()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do {
                _ = try pool.load(site.url("/slow"), cookies: [])
                outcome.add(message: "loaded")
            } catch {
                outcome.add(message: "\(error)")
            }
            done.signal()
        }
        let asked = eventually(within: 10) { ((try? site.requests("/slow")) ?? []).count == 1 }
        #expect(asked, "the slow page was asked for")
        kill(browser, SIGKILL)
        #expect(done.wait(timeout: .now() + 25) == .success, "the load ends when its browser dies")
        let message = outcome.messages.first ?? ""
        #expect(message.contains("Chromium stopped while loading the page"), "\(message)")
        let next = try pool.load(site.url("/fast"), cookies: [])
        #expect(String(decoding: next.body, as: UTF8.self).contains("A paragraph long enough"))
        #expect(pool.starts == 2 && pool.processID != browser, "a new browser")
    }
}

/// Outcomes from several threads. `@unchecked Sendable`: guarded by `lock`.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Bool] = []
    private var texts: [String] = []
    func add(_ value: Bool) { lock.withLock { values.append(value) } }
    func add(message: String) { lock.withLock { texts.append(message) } }
    var all: [Bool] { lock.withLock { values } }
    var messages: [String] { lock.withLock { texts } }
}
