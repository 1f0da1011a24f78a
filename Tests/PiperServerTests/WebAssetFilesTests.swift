import Foundation
import PiperTestSupport
import Testing
@testable import PiperServer

/// The web app's files (Sources/PiperServer/Web/app) are what the binary serves: the generated
/// the generated Swift is current with them, every script parses (`node --check`), and each is
/// served at its old address with its old headers.
@Suite(.ownThread) struct WebAssetFilesTests {
    static let app = packageRoot.appendingPathComponent("Sources/PiperServer/Web/app")

    static func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: app.path).filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test func theEmbeddedFilesAreTheFilesInTheRepository() throws {
        let files = try Self.files()
        #expect(files.map { "/" + $0 } == WebAssets.served.keys.sorted(), "a file in Web/app that is not embedded, or one embedded that is gone")
        for name in files {
            let text = try String(contentsOf: Self.app.appendingPathComponent(name), encoding: .utf8)
            #expect(WebAssets.served["/" + name]?.body == text, "\(name) changed: run scripts/gen-web-assets")
        }
        // The generator's own check: the Swift it writes, comments and table included.
        let check = try runProcessCapturing("/usr/bin/python3", [packageRoot.appendingPathComponent("scripts/gen-web-assets").path, "--check"])
        #expect(check.status == 0, "\(check.stderr)")
    }

    static var node: String? {
        ["/usr/bin/node", "/usr/bin/nodejs", "/usr/local/bin/node"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test(.enabled(if: node != nil || ProcessInfo.processInfo.environment["CI"] != nil, "node is not installed"))
    func everyScriptParses() throws {
        let node = try #require(Self.node, "node is required under CI (Debian's nodejs; scripts/install-deps installs it)")
        let scripts = try Self.files().filter { $0.hasSuffix(".js") }
        #expect(scripts.count >= 4, "\(scripts)")
        for name in scripts {
            let run = try runProcessCapturing(node, ["--check", Self.app.appendingPathComponent(name).path])
            #expect(run.status == 0, "\(name): \(run.stderr)")
        }
        // The check sees a syntax error.
        let broken = try freshDirectory("js").appendingPathComponent("broken.js")
        try "function (".write(to: broken, atomically: true, encoding: .utf8)
        #expect(try runProcessCapturing(node, ["--check", broken.path]).status != 0)
        let manifest = try #require(WebAssets.served["/manifest.webmanifest"]?.body.data(using: .utf8))
        #expect((try JSONSerialization.jsonObject(with: manifest) as? [String: Any])?["share_target"] != nil)
    }

    /// The outbox's schema is written once: the worker imports db.js, the pages load it before
    /// their script, and nothing else opens the database.
    @Test func theOutboxSchemaHasOneDefinition() throws {
        let opening = "indexedDB.open("
        for (path, asset) in WebAssets.served {
            #expect(asset.body.components(separatedBy: opening).count - 1 == (path == "/db.js" ? 1 : 0), "\(path) opens IndexedDB itself")
        }
        #expect(WebAssets.serviceWorker.contains("importScripts('/db.js')"))
        let page = String(decoding: WebPage.render("T", "").body, as: UTF8.self)
        let database = try #require(page.range(of: "<script src=\"/db.js\" defer></script>"))
        let script = try #require(page.range(of: "<script src=\"/app.js\" defer></script>"))
        #expect(database.lowerBound < script.lowerBound)
    }

    @Test func everyFileIsServedAtItsAddressWithItsHeaders() async throws {
        let server = try ShareServer()
        let types = ["/app.css": "text/css; charset=utf-8", "/app.js": "text/javascript; charset=utf-8",
                     "/sw.js": "text/javascript; charset=utf-8", "/db.js": "text/javascript; charset=utf-8",
                     "/manifest.webmanifest": "application/manifest+json", "/icon-192.png": "image/png", "/icon-512.png": "image/png",
                     "/library.css": "text/css; charset=utf-8", "/library.js": "text/javascript; charset=utf-8"]
        for (path, type) in types {
            let reply = try await Client.send("GET", server.url + path)
            #expect(reply.status == 200 && reply.header("Content-Type") == type && reply.header("Cache-Control") == "no-cache",
                    "\(path): \(reply.status) \(reply.header("Content-Type") ?? "")")
            if let asset = WebAssets.served[path] { #expect(reply.text == asset.body, "\(path)") }
            #expect(reply.header("Service-Worker-Allowed") == (path == "/sw.js" ? "/" : nil), "\(path)")
        }
    }
}
