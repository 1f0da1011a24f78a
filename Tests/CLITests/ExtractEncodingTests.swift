import Foundation
import PiperTestSupport
import Testing

/// Pages that do not declare their encoding, as a new user meets them: a UTF-8 page served as
/// plain `text/html` (no charset, no `<meta charset>`) keeps its accents through `piper
/// extract` (URL, file and stdin) and `piper share`.
@Suite(.ownThread, .timeLimit(.minutes(2))) struct ExtractEncodingTests {
    static let sentence = "Café — déjà vu"
    static let page: String = {
        let paragraph = "\(sentence). Au café du coin, le garçon apporte un crème et une tartine beurrée, "
            + "et l’on regarde la pluie tomber sur la façade de l’hôtel en rêvant de forêts et de châteaux. "
        return """
            <!DOCTYPE html><html><head><title>Café — déjà vu</title></head><body><article>
            <h1>Café — déjà vu</h1>
            \(Array(repeating: "<p>\(paragraph)\(paragraph)</p>", count: 4).joined(separator: "\n"))
            </article></body></html>
            """
    }()
    static let plainHTML = ["Content-Type": "text/html"]

    @Test func aUTF8PageServedWithoutCharsetKeepsItsAccents() throws {
        let site = try TestHTTPServer(routes: ["/page.html": .init(headers: Self.plainHTML, body: Self.page)])
        defer { site.stop() }
        let result = try PiperBinary.run(["extract", "--text", "--meta", site.url("/page.html").absoluteString])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains(Self.sentence))
        #expect(!result.stdout.contains("Ã"), "mojibake: \(result.stdout.prefix(200))")
        let meta = try #require(result.stderr.split(separator: "\n").first { $0.hasPrefix("{") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(meta.utf8)) as? [String: String])
        #expect(object == ["encoding": "utf-8", "encodingSource": "detected"])
    }

    @Test func theHTTPCharsetStillWins() throws {
        let site = try TestHTTPServer(routes: ["/page.html": .init(headers: ["Content-Type": "text/html; charset=windows-1252"], body: Self.page)])
        defer { site.stop() }
        let result = try PiperBinary.run(["extract", "--text", "--meta", site.url("/page.html").absoluteString])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("CafÃ©"))
        #expect(result.stderr.contains(#""encodingSource":"transport""#))
    }

    @Test func filesAndStandardInputAreDetectedToo() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("piper-enc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("page.html")
        try Data(Self.page.utf8).write(to: file)
        let fromFile = try PiperBinary.run(["extract", file.path])
        #expect(fromFile.status == 0 && fromFile.stdout.contains(Self.sentence), "\(fromFile.stderr)")
        let fromStdin = try PiperBinary.run(["extract", "-"], stdin: Data(Self.page.utf8))
        #expect(fromStdin.status == 0 && fromStdin.stdout.contains(Self.sentence), "\(fromStdin.stderr)")
        // --json keeps its fixed keys; --meta goes to stderr only.
        let json = try PiperBinary.run(["extract", "--json", "--meta", file.path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["title", "byline", "dir", "lang", "content", "textContent", "length", "excerpt",
                                     "siteName", "publishedTime", "readerable"])
        #expect((object["title"] as? String) == Self.sentence)
    }

    @Test func encodingOptionOverridesDetection() throws {
        let result = try PiperBinary.run(["extract", "--encoding", "windows-1252", "--meta", "-"], stdin: Data(Self.page.utf8))
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("CafÃ©"))
        #expect(result.stderr.contains(#"{"encoding":"windows-1252","encodingSource":"transport"}"#))
        let bad = try PiperBinary.run(["extract", "--encoding", "klingon", "-"], stdin: Data(Self.page.utf8))
        #expect(bad.status == 64)
    }

    @Test func parseVerboseNamesTheEncoding() throws {
        let shiftJIS: [UInt8] = Array("<!DOCTYPE html><p>".utf8)
            + [0x82, 0xB7, 0x82, 0xD7, 0x82, 0xC4, 0x82, 0xCC, 0x90, 0x6C, 0x8A, 0xD4, 0x82, 0xCD]  // すべての人間は
        let result = try PiperBinary.run(["parse", "--tree", "--verbose", "-"], stdin: Data(shiftJIS))
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("encoding: shift_jis (detected)"))
        #expect(result.stdout.contains("すべての人間は"))
    }

    @Test func sharedToARealBackendKeepsItsAccents() async throws {
        let dir = try makeShareTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let site = try TestHTTPServer(routes: ["/page.html": .init(headers: Self.plainHTML, body: Self.page)])
        defer { site.stop() }
        let backend = try ShareBackend(home: dir.appendingPathComponent("serve"))
        defer { backend.stop() }
        let result = try PiperBinary.run(["share", "--no-clipboard", "--browser", "never", "--backend", backend.baseURL,
                                          site.url("/page.html").absoluteString], home: dir.appendingPathComponent("home"))
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let url = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let (status, html) = try await httpGet(url)
        #expect(status == 200)
        #expect(html.contains("déjà vu") || html.contains("d&eacute;j&agrave; vu"))
        #expect(!html.contains("Ã"))
    }
}
