import Foundation
import PiperNet
import PiperTestSupport
import Testing
@testable import PiperServer

/// The library page in real headless Chromium over CDP: an item plays its first second (the
/// media element's own `duration` and `currentTime`), a chapter link of the m4b fixture seeks
/// its player to chapter 2, the filter hides what does not match, covers and the QR code load,
/// and the CSP reports nothing.
@Suite(.ownThread, .timeLimit(.minutes(3)),
       .enabled(if: BrowserPageLoader.find() != nil || ProcessInfo.processInfo.environment["CI"] != nil,
                "chromium is not installed"))
struct LibraryBrowserTests {
    @Test func playsSeeksFiltersAndKeepsToItsCSP() throws {
        let library = try LibraryServer(fixtures: [("sample.m4b", "Books"), ("sample.mp3", nil)],
                                        made: [("covered.mp3", try CoveredMedia.mp3())])
        let loader = try #require(BrowserPageLoader.system(), "chromium is required under CI")
        let browser = try BrowserScript(loader: loader)
        defer { browser.close() }
        // Pairing: the link shows a button, and only its POST sets the device cookie.
        try browser.navigate(try #require(URL(string: "\(library.url)/pair?code=\(try library.server.registry.createPairing())")))
        try browser.submit("document.getElementById('pair').click(); 1")
        #expect(try library.server.registry.devices().count == 1)
        try browser.navigate(try #require(URL(string: "\(library.url)/library")))
        #expect(try browser.evaluate("document.title") as? String == "Library — Piper")
        #expect(try browser.evaluate("document.querySelectorAll('article.item').length") as? Int == 3)

        // The first second of an episode, played (muted; a user gesture, as a tap would be).
        let episode = try library.id("sample.mp3")
        let played = try gesture(browser, """
            new Promise(function (done, fail) {
              var player = document.getElementById('player-\(episode)');
              var timer = setTimeout(function () { fail(new Error('no second of playback, readyState ' + player.readyState)); }, 30000);
              player.muted = true;
              player.addEventListener('error', function () { fail(new Error('media error ' + (player.error && player.error.code))); });
              player.addEventListener('timeupdate', function () {
                if (player.currentTime >= 1) { clearTimeout(timer); player.pause(); done({duration: player.duration, currentTime: player.currentTime}); }
              });
              player.play().catch(fail);
            })
            """)
        let duration = try #require((played?["duration"] as? NSNumber)?.doubleValue)
        let position = try #require((played?["currentTime"] as? NSNumber)?.doubleValue)
        #expect(abs(duration - 6.374) < 0.1, "duration \(duration)")
        #expect(position >= 1 && position < duration)

        // Chapter 2 of the audiobook, through its chapter link (the page's script seeks).
        let book = try library.id("sample.m4b")
        let chapters = try browser.evaluate("Array.from(document.querySelectorAll('#item-\(book) ol.chapters a')).map(function (a) { return a.textContent; })")
        #expect(chapters as? [String] == ["Chapter One", "Chapter Two"])
        let seeked = try gesture(browser, """
            new Promise(function (done, fail) {
              var player = document.getElementById('player-\(book)');
              var timer = setTimeout(function () { fail(new Error('no seek, readyState ' + player.readyState)); }, 30000);
              player.muted = true;
              player.addEventListener('error', function () { fail(new Error('media error ' + (player.error && player.error.code))); });
              player.addEventListener('seeked', function () { clearTimeout(timer); var at = player.currentTime; player.pause(); done({currentTime: at, duration: player.duration}); }, {once: true});
              document.querySelectorAll('#item-\(book) ol.chapters a')[1].click();
            })
            """)
        let chapterTwo = try #require((seeked?["currentTime"] as? NSNumber)?.doubleValue)
        // The page plays on after its seek; the handler reads the time a moment later (longer on
        // a loaded machine), so chapter 2's start is told from chapter 1's (0 s) within half a second.
        #expect(chapterTwo >= 2.45 && chapterTwo < 3.0, "currentTime after the chapter link: \(chapterTwo)")
        #expect(try browser.evaluate("location.pathname") as? String == "/library", "the link seeked instead of navigating")

        // Filtering as one types.
        _ = try browser.evaluate("var f = document.getElementById('filter'); f.value = 'audiobook'; f.dispatchEvent(new Event('input')); 1")
        #expect(try browser.evaluate("document.querySelectorAll('article.item:not([hidden])').length") as? Int == 1)
        #expect(try browser.evaluate("document.getElementById('count').textContent") as? String == "1 of 3 items match")

        // The cover and the feed's QR code load (img-src 'self').
        let covered = try library.id("covered.mp3")
        #expect(try browser.evaluate("""
            Promise.all(['#item-\(covered) img.cover', '#feed-qr'].map(function (sel) {
              var img = document.querySelector(sel);
              return img.complete ? Promise.resolve(img.naturalWidth) : new Promise(function (done) { img.onload = function () { done(img.naturalWidth); }; img.onerror = function () { done(0); }; });
            })).then(function (widths) { return widths.every(function (w) { return w > 0; }); })
            """) as? Bool == true)

        let violations = browser.logMessages.filter { $0.contains("Content Security Policy") || $0.contains("Refused to") }
        #expect(violations.isEmpty, "\(violations)")
    }

    /// `Runtime.evaluate` as a user gesture, awaiting the promise; the value returned.
    private func gesture(_ browser: BrowserScript, _ expression: String) throws -> [String: Any]? {
        let result = try browser.call("Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true, "userGesture": true])
        if let exception = result["exceptionDetails"] as? [String: Any] {
            Issue.record("script failed: \((exception["exception"] as? [String: Any])?["description"] ?? exception)")
            return nil
        }
        return (result["result"] as? [String: Any])?["value"] as? [String: Any]
    }
}
