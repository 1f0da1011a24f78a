import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperNet

@Suite(.ownThread) struct FileCookieStoreTests {
    @Test func savesWithMode0600ByAtomicReplaceAndLoadsBack() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = FileCookieStore(state: StateFolder(url: dir.appendingPathComponent("home")))
        #expect(try store.load().cookies.isEmpty)
        let first = CookieJar([Cookie(domain: ".x.com", httpOnly: true, expires: Date(timeIntervalSince1970: 1_900_000_000),
                                      name: "auth_token", value: "one")])
        try store.save(first)
        #expect(try store.load() == first)
        let second = CookieJar([Cookie(domain: ".x.com", name: "auth_token", value: "two")])
        try store.save(second)
        #expect(try store.load() == second)
        let attributes = try FileManager.default.attributesOfItem(atPath: store.file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        // No temp file left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.state.url.path) == ["cookies.txt"])
        #expect(try store.remove())
        #expect(try !store.remove())
    }

    @Test func aBrokenFileIsAnErrorNamingTheLine() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = FileCookieStore(state: StateFolder(url: dir))
        try "# comment\nnot a cookie line\n".write(to: store.file, atomically: true, encoding: .utf8)
        #expect(throws: CookieFileError.malformedLine(2, "expected 7 tab-separated fields, found 1")) { try store.load() }
    }
}

@Suite(.ownThread) struct ClipboardChoiceTests {
    func fakeTools(_ names: [String]) throws -> URL {
        let dir = try makeTempDir()
        // Symlinks to real binaries: a script written just now can't be exec'd while a parallel
        // test's fork still holds it open (ETXTBSY).
        for name in names {
            try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent(name).path, withDestinationPath: "/bin/cat")
        }
        return dir
    }

    @Test func waylandThenX11Tools() throws {
        let bin = try fakeTools(["wl-copy", "xclip", "xsel"])
        defer { try? FileManager.default.removeItem(at: bin) }
        let wayland = SystemClipboard(environment: ["PATH": bin.path, "WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"])
        #expect(wayland.mechanism() == .tool(bin.appendingPathComponent("wl-copy").path, []))
        #expect(try wayland.copy("https://example.com/x") == "wl-copy")
        let x11 = SystemClipboard(environment: ["PATH": bin.path, "DISPLAY": ":0"])
        #expect(x11.mechanism() == .tool(bin.appendingPathComponent("xclip").path, ["-selection", "clipboard", "-in"]))
    }

    @Test func xselWhenThereIsNoXclip() throws {
        let bin = try fakeTools(["xsel"])
        defer { try? FileManager.default.removeItem(at: bin) }
        let x11 = SystemClipboard(environment: ["PATH": bin.path, "DISPLAY": ":0"])
        #expect(x11.mechanism() == .tool(bin.appendingPathComponent("xsel").path, ["--clipboard", "--input"]))
    }

    @Test func noDisplayFallsBackToTheTerminalOrFails() throws {
        let bin = try fakeTools(["xclip"])
        defer { try? FileManager.default.removeItem(at: bin) }
        let headless = SystemClipboard(environment: ["PATH": bin.path])
        let choice = headless.mechanism()
        #expect(choice == .osc52 || choice == nil)
        if choice == nil {
            #expect(throws: ClipboardError.self) { try headless.copy("x") }
        }
    }

    @Test func aFailingToolIsAClipboardError() throws {
        let bin = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: bin) }
        try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent("xclip").path, withDestinationPath: "/bin/false")
        let error = try #require(throws: ClipboardError.self) { try SystemClipboard(environment: ["PATH": bin.path, "DISPLAY": ":0"]).copy("x") }
        #expect(error.description.contains("exited with status 1"))
    }
}
