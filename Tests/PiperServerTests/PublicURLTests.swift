import Foundation
import PiperTestSupport
import Testing
@testable import PiperServer

/// `piper serve --public-url` records the address in its store, so the commands an operator
/// runs next on the server's state folder build their links on it: `pair`, `library feed`
/// (each with `--no-qr`), `devices token`.
@Suite(.ownThread, .timeLimit(.minutes(2)))
struct PublicURLTests {
    @Test func pairFeedAndDevicesFindTheServersPublicURL() async throws {
        let base = "https://piper.example.test"
        let server = try ShareServer(["--public-url", base + "/"])
        let pair = try PiperBinaryRun.piper(["pair", "--no-qr"], home: server.home)
        #expect(pair.status == 0, "\(pair.stderr)")
        #expect(pair.stdout.hasPrefix("\(base)/pair?code="), "\(pair.stdout)")
        #expect(!pair.stderr.contains("█") && !pair.stderr.contains("▀"), "no QR code with --no-qr: \(pair.stderr)")

        let feed = try PiperBinaryRun.piper(["library", "feed", "--no-qr"], home: server.home)
        #expect(feed.status == 0, "\(feed.stderr)")
        #expect(feed.stdout.hasPrefix("\(base)/feed/") && feed.stdout.contains(".xml"), "\(feed.stdout)")
        #expect(!feed.stderr.contains("Scan it"), "no QR code with --no-qr: \(feed.stderr)")
        let withQR = try PiperBinaryRun.piper(["library", "feed"], home: server.home)
        #expect(withQR.stdout == feed.stdout)
        #expect(withQR.stderr.contains("Scan it") || TerminalQR.render("x") == nil, "the QR code without the flag: \(withQR.stderr)")

        let token = try PiperBinaryRun.piper(["devices", "token", "Shortcut"], home: server.home)
        #expect(token.status == 0 && token.stderr.contains("with each POST to \(base)/share"), "\(token.stderr)")

        // `serve --pair --no-qr`: the link alone, on the public URL.
        let paired = try ServeProcess(arguments: ["--pair", "--no-qr", "--public-url", base], home: try freshDirectory("pair-no-qr"))
        #expect(eventually(within: 20) { paired.stderr.contains("\(base)/pair?code=") }, "\(paired.stderr)")
        #expect(!paired.stderr.contains("█") && !paired.stderr.contains("▀"), "no QR code with --no-qr: \(paired.stderr)")

        // Without it (a fresh folder, no backend configured), pair still refuses and says how.
        let fresh = try freshDirectory("no-url")
        let none = try PiperBinaryRun.piper(["pair"], home: fresh)
        #expect(none.status == 78 && none.stderr.contains("start piper serve with --public-url"), "\(none.stderr)")
    }
}
