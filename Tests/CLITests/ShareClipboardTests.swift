import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PiperTestSupport
import Testing

/// The clipboard for real: the test starts its own Xvfb (a free display picked by -displayfd),
/// shares with DISPLAY pointing at it, and reads the clipboard back with xclip.
/// Skipped without Xvfb/xclip unless `CI` is set, then failed.
let clipboardToolsPresent = FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb")
    && FileManager.default.isExecutableFile(atPath: "/usr/bin/xclip")

@Suite(.ownThread, .timeLimit(.minutes(1)), .enabled(if: clipboardToolsPresent || shareIsCI, "Xvfb or xclip is not installed"))
struct ShareClipboardTests {
    @Test func theSharedURLLandsOnTheX11Clipboard() throws {
        try #require(clipboardToolsPresent, "Xvfb and xclip are needed (apt-get install xvfb xclip)")
        let xvfb = Process()
        xvfb.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        xvfb.arguments = ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "640x480x24"]
        let out = Pipe()
        xvfb.standardOutput = out
        xvfb.standardError = FileHandle.nullDevice
        try xvfb.run()
        defer { kill(xvfb.processIdentifier, SIGKILL); xvfb.waitUntilExit() }
        let display = try #require(Int(readFirstLine(out).trimmingCharacters(in: .whitespaces)))

        let dir = try makeShareTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let corpus = PiperBinary.packageRoot.appendingPathComponent("../shared/corpus/readability").standardizedFileURL
        let site = try TestHTTPServer(routes: [:], staticRoot: corpus)
        defer { site.stop() }
        let backend = try ShareBackend(home: dir.appendingPathComponent("serve"))
        defer { backend.stop() }

        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = ":\(display)"
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        let result = try PiperBinary.run(["share", "--backend", backend.baseURL, site.url("/001/source.html").absoluteString],
                                         environment: ["DISPLAY": ":\(display)", "WAYLAND_DISPLAY": ""])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("not copied"))
        let url = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let pasted = try runTool("/usr/bin/xclip", ["-o", "-selection", "clipboard"], environment: env)
        #expect(pasted.status == 0)
        #expect(pasted.out == url)
    }
}
