import Foundation
import PiperCore
import PiperNet
import PiperTestSupport
import Testing
@testable import MediaImport
@testable import PiperServer

/// Two real `piper serve` on one PostgreSQL (a schema of their own) and one library folder both
/// mount (`--library`), as two servers behind a balancer: the library is one, whichever server
/// a share went through.
@Suite(.ownThread, .timeLimit(.minutes(4)))
struct LibraryScaleOutTests {
    /// The two servers, the shared folder and the site the media comes from.
    struct Pair {
        let schema: FreshPostgresSchema
        let library: URL
        let a: ShareServer
        let b: ShareServer
        let site: TestHTTPServer

        init() throws {
            schema = try FreshPostgresSchema()
            library = try freshDirectory("shared-library")
            let arguments = ["--allow-host", "127.0.0.1", "--postgres", schema.url, "--library", library.path]
            a = try ShareServer(arguments)
            b = try ShareServer(arguments)
            site = try TestHTTPServer(routes: [:], staticRoot: mediaFixtures)
        }

        func catalog() throws -> [LibraryItem] { try PostgresCatalog(database: try schema.open(connections: 1)).items() }

        /// The media files in the shared folder (not the hidden mark or temp files).
        func files() throws -> [String] {
            try FileManager.default.subpathsOfDirectory(atPath: library.path)
                .filter { !$0.split(separator: "/").contains { $0.hasPrefix(".") } && !LibraryImporter.isDirectory(library.appendingPathComponent($0)) }
                .sorted()
        }
    }

    /// An owner's browser paired on `server` through `piper pair --postgres` (devices are the
    /// store's, as for the servers): its `Cookie` header value.
    static func pair(_ server: ShareServer, postgres: String) async throws -> String {
        let pairing = try PiperBinaryRun.piper(["pair", "--postgres", postgres, "--url", server.url, "--no-qr"], home: server.home)
        try #require(pairing.status == 0, "\(pairing.stderr)")
        let link = pairing.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let code = try #require(URLComponents(string: link)?.queryItems?.first { $0.name == "code" }?.value, "\(link)")
        let paired = try await server.confirmPairing(code: code, name: "owner-" + UUID().uuidString.prefix(8).lowercased())
        try #require(paired.status == 200, "\(paired.text)")
        return try #require(paired.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
    }

    /// Shares `path` of the site through `server` and waits for its job's final state.
    static func share(_ path: String, through server: ShareServer, site: TestHTTPServer) async throws -> String {
        let reply = try await server.shareJSON(["url": site.url(path).absoluteString], headers: try server.bearer)
        try #require(reply.status == 202, "\(reply.text)")
        let job = try #require(try reply.json()["job"] as? String, "\(reply.text)")
        return try await ShareRouteTests.waitForJob(job, server: server)
    }

    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func aMediaShareThroughOneServerIsListedStreamedAndInTheFeedOnTheOther() async throws {
        let servers = try Pair()
        defer { servers.schema.drop() }
        let state = try await Self.share("/sample.mp3", through: servers.a, site: servers.site)
        #expect(state.hasPrefix("imported as "), "\(state)\n\(servers.a.serve.stderr)")
        let item = try #require(try servers.catalog().first)
        #expect(try servers.catalog().count == 1)
        let id = LibraryShelf.id(of: item)
        let bytes = try Data(contentsOf: mediaFixtures.appendingPathComponent("sample.mp3"))
        #expect(try Data(contentsOf: servers.library.appendingPathComponent(item.path)) == bytes, "in the shared folder")
        #expect(!FileManager.default.fileExists(atPath: servers.a.home.appendingPathComponent("library.sqlite").path),
                "the catalog is the store's, not a file of A's")

        // B lists it, streams it whole and by range.
        let owner = ["Cookie": try await Self.pair(servers.b, postgres: servers.schema.url)]
        let page = try await Client.send("GET", servers.b.url + "/library", headers: owner.merging(["Accept": "text/html"]) { $1 })
        #expect(page.status == 200 && page.text.contains("src=\"/media/\(id)\""), "B's library page lists A's import: \(page.text)")
        let whole = try await Client.send("GET", servers.b.url + "/media/\(id)", headers: owner)
        #expect(whole.status == 200 && whole.body == bytes)
        let range = try await Client.send("GET", servers.b.url + "/media/\(id)", headers: owner.merging(["Range": "bytes=100-199"]) { $1 })
        #expect(range.status == 206 && range.body == bytes.subdata(in: 100..<200), "\(range.status)")

        // Both feeds hold it, and B's enclosure answers.
        let feed = try PiperBinaryRun.piper(["library", "feed", "--postgres", servers.schema.url, "--no-qr"], home: servers.b.home)
        let secret = try #require(feed.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "/").last?.dropLast(4).description,
                                  "\(feed.stderr)")
        for server in [servers.a, servers.b] {
            let xml = try await Client.send("GET", "\(server.url)/feed/\(secret).xml")
            #expect(xml.status == 200 && xml.text.components(separatedBy: "<item>").count == 2, "one item on \(server.url): \(xml.text)")
        }
        let xml = try await Client.send("GET", "\(servers.b.url)/feed/\(secret).xml").text
        let enclosure = try #require(xml.range(of: #"<enclosure url="[^"]+""#, options: .regularExpression).map {
            String(xml[$0].dropFirst("<enclosure url=\"".count).dropLast()).replacingOccurrences(of: "&amp;", with: "&")
        }, "\(xml)")
        #expect(enclosure.hasPrefix(servers.b.url + "/media/\(id)"), "\(enclosure)")
        let played = try await Client.send("GET", enclosure)
        #expect(played.status == 200 && played.body == bytes, "\(played.status)")

        // The commands on B's machine list and remove through the same catalog.
        let shared = ["--postgres", servers.schema.url, "--library", servers.library.path]
        let listed = try PiperBinaryRun.piper(["library", "--json"] + shared, home: servers.b.home)
        #expect(listed.status == 0 && listed.stdout.contains("\"path\":\"\(item.path)\""), "\(listed.stdout)\(listed.stderr)")
        let removed = try PiperBinaryRun.piper(["library", "rm", id] + shared, home: servers.b.home)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try servers.catalog().isEmpty && servers.files().isEmpty)
        let gone = try await Client.send("GET", servers.a.url + "/media/\(id)", headers: ["Cookie": try await Self.pair(servers.a, postgres: servers.schema.url)])
        #expect(gone.status == 404, "removed on B, gone on A")
    }

    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func theSameBytesSharedThroughBothAtOnceAreImportedOnce() async throws {
        let servers = try Pair()
        defer { servers.schema.drop() }
        // Both shares are sent before either answers; each server's agent downloads its own copy.
        let body = try JSONSerialization.data(withJSONObject: ["url": servers.site.url("/sample.mp3").absoluteString])
        let (urlA, urlB) = (servers.a.url, servers.b.url)
        let (headersA, headersB) = (try servers.a.bearer.merging(["Content-Type": "application/json"]) { $1 },
                                    try servers.b.bearer.merging(["Content-Type": "application/json"]) { $1 })
        async let sentA = Client.send("POST", urlA + "/share", body: body, headers: headersA)
        async let sentB = Client.send("POST", urlB + "/share", body: body, headers: headersB)
        let replies = try await [sentA, sentB]
        var states: [String] = []
        for (reply, server) in zip(replies, [servers.a, servers.b]) {
            try #require(reply.status == 202, "\(reply.text)")
            states.append(try await ShareRouteTests.waitForJob(try #require(try reply.json()["job"] as? String), server: server))
        }
        #expect(states.filter { $0.hasPrefix("imported as ") }.count == 1, "\(states)")
        #expect(states.filter { $0.hasPrefix("duplicate as ") }.count == 1, "\(states)")
        #expect(try servers.catalog().map(\.path) == ["sample.mp3"])
        #expect(try servers.files() == ["sample.mp3"])
    }

    /// X connected through A's `/connect-x` is B's from its next share: B no longer asks for the
    /// X connection, its Connect X page says connected (never showing a value), nothing is
    /// written to either state folder, and forgetting it on B holds on A.
    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"),
          .enabled(if: BrowserPageLoader.find() != nil || ProcessInfo.processInfo.environment["CI"] != nil, "chromium is not installed"))
    func xConnectedThroughOneServerIsUsedByTheOther() async throws {
        let schema = try FreshPostgresSchema()
        defer { schema.drop() }
        let arguments = ["--allow-host", "x.com", "--postgres", schema.url]
        let a = try ShareServer(arguments), b = try ShareServer(arguments)
        let link = "https://x.com/someone/status/1"
        let before = try await b.shareJSON(["url": link], headers: try b.bearer)
        #expect(try before.status == 409 && (before.json()["action"] as? String) == "/connect-x", "\(before.text)")

        let cookie = try await Self.pair(a, postgres: schema.url)
        let future = Int(Date().timeIntervalSince1970) + 86_400
        let text = "# Netscape HTTP Cookie File\n.x.com\tTRUE\t/\tTRUE\t\(future)\tauth_token\tsecret-value-123\n"
            + ".x.com\tTRUE\t/\tTRUE\t\(future)\tct0\tcsrf-value\n"
        let headers = ["Cookie": cookie, "Accept": "text/html", "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded"]
        let connected = try await Client.send("POST", a.url + "/connect-x",
                                              body: Data(("cookies=" + (text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")).utf8),
                                              headers: headers)
        #expect(connected.status == 200 && connected.text.contains("Connected."), "\(connected.text)")

        let after = try await b.shareJSON(["url": link], headers: try b.bearer)
        #expect(try after.status != 409 && (after.json()["action"] as? String) != "/connect-x", "B uses A's X login: \(after.text)")
        let onB = try await Client.send("GET", b.url + "/connect-x", headers: ["Cookie": cookie, "Accept": "text/html"])
        #expect(onB.text.contains("Connected: the server has 2 X cookies") && !onB.text.contains("secret-value-123"), "\(onB.text)")
        for server in [a, b] {
            #expect(!FileManager.default.fileExists(atPath: server.home.appendingPathComponent("cookies.txt").path))
        }
        let stored = try schema.connect().execute("SELECT value FROM piper_secrets WHERE name = 'x-cookies'").onlyRow().text("value")
        #expect(stored.contains("auth_token\tsecret-value-123"))

        let forgotten = try await Client.send("POST", b.url + "/connect-x", body: Data("forget=1".utf8),
                                              headers: headers)
        #expect(forgotten.text.contains("Forgotten"), "\(forgotten.text)")
        let again = try await a.shareJSON(["url": link], headers: try a.bearer)
        #expect(again.status == 409, "forgotten on B, A asks again: \(again.text)")
    }

    /// A server that kept its library in `library.sqlite` starts with `--postgres`: its items
    /// move into the store's catalog (listed and streamed by every server), and the file is
    /// set aside.
    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func aServersFormerLibraryMovesIntoTheStore() async throws {
        let schema = try FreshPostgresSchema()
        defer { schema.drop() }
        let library = try freshDirectory("shared-library")
        let server = try ShareServer(["--postgres", schema.url, "--library", library.path]) { home in
            let state = StateFolder(url: home, library: library)
            try state.ensure(state.inbox)
            try FileManager.default.copyItem(at: mediaFixtures.appendingPathComponent("sample.mp3"), to: state.inbox.appendingPathComponent("sample.mp3"))
            let importer = try LibraryImporter(state: state)
            _ = try importer.importPending()
            try #require(try importer.keepInFolder(libraryPath: "sample.mp3", folder: "Mix", name: "01 sample.mp3") == "Mix/01 sample.mp3")
        }
        let catalog = PostgresCatalog(database: try schema.open(connections: 1))
        #expect(try catalog.items().map(\.path) == ["sample.mp3", "Mix/01 sample.mp3"], "the item and its folder's member")
        #expect(try catalog.members(sha256: try #require(try catalog.items().first).sha256) == ["Mix/01 sample.mp3"])
        #expect(!FileManager.default.fileExists(atPath: server.home.appendingPathComponent("library.sqlite").path))
        #expect(FileManager.default.fileExists(atPath: server.home.appendingPathComponent("library.sqlite.migrated").path))
        let id = LibraryShelf.id(of: try #require(try catalog.items().first))
        let cookie = try await Self.pair(server, postgres: schema.url)
        let media = try await Client.send("GET", server.url + "/media/\(id)", headers: ["Cookie": cookie])
        let bytes = try Data(contentsOf: mediaFixtures.appendingPathComponent("sample.mp3"))
        #expect(media.status == 200 && media.body == bytes)
    }
}
