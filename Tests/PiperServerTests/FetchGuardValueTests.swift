import Foundation
import MediaImport
import PiperCore
import PiperNet
import PiperTestSupport
import Testing
@testable import PiperServer

/// The SSRF guard is a value each fetcher carries, not state of the process: the fetchers a
/// server builds with it refuse a local address on their own, and fetchers built without it in
/// the same process, before and after, fetch from that address as usual.
@Suite(.ownThread, .timeLimit(.minutes(2)))
struct FetchGuardValueTests {
    static let refusal = "Refused to fetch from 127.0.0.1: a loopback address"

    /// A local media file on 127.0.0.1 and a fresh partial-file path for downloads.
    static func site() throws -> (TestHTTPServer, TemporaryFolder) {
        let server = try TestHTTPServer(routes: ["/page": .html("<p>a local page</p>")])
        try server.route("/episode", .init(body: [UInt8](repeating: 0x49, count: 4096)))
        return (server, try TemporaryFolder("fetch-guard"))
    }

    func download(_ downloader: Downloader, _ url: URL, into folder: TemporaryFolder) throws -> DownloadResult {
        try downloader.download(DownloadRequest(url: url, partialFile: folder.url.appendingPathComponent(UUID().uuidString)))
    }

    @Test func theServersFetchersRefuseALocalAddressOnTheirOwn() throws {
        let (server, folder) = try Self.site()
        defer { server.stop() }
        let check = FetchGuard(policy: FetchPolicy()).connectionGuard

        let page = #expect(throws: LoadError.self) { try HTTPPageLoader(connectionGuard: check).load(server.url("/page"), cookies: []) }
        #expect(page.map { "\($0)" }?.contains(Self.refusal) == true, "\(String(describing: page))")
        let probe = #expect(throws: EnqueueError.self) { try EnqueueProbe(connectionGuard: check).contentType(of: server.url("/episode")) }
        #expect(probe.map { "\($0)" }?.contains(Self.refusal) == true, "\(String(describing: probe))")
        let downloaded = #expect(throws: DownloadError.self) {
            try download(Downloader(connectionGuard: check), server.url("/episode"), into: folder)
        }
        // Final at once: a refusal is no network trouble worth another attempt.
        #expect(downloaded.map { "\($0)" } == "Download failed: \(Self.refusal) (piper serve --allow-host opens it)",
                "\(String(describing: downloaded))")
        #expect(try server.requests().isEmpty, "nothing reached the local server")
    }

    @Test func fetchersWithoutTheGuardInTheSameProcessAreNotAffected() throws {
        let (server, folder) = try Self.site()
        defer { server.stop() }
        let guarded = Downloader(connectionGuard: FetchGuard(policy: FetchPolicy()).connectionGuard)
        #expect(throws: DownloadError.self) { try download(guarded, server.url("/episode"), into: folder) }
        #expect(try server.requests().isEmpty)

        // Built after a guarded one ran, as the CLI's fetchers are: nothing of it carried over.
        let page = try HTTPPageLoader().load(server.url("/page"), cookies: [])
        #expect(String(decoding: page.body, as: UTF8.self) == "<p>a local page</p>")
        #expect(try EnqueueProbe().contentType(of: server.url("/episode")) == "audio/mpeg")
        #expect(try download(Downloader(), server.url("/episode"), into: folder).bytes == 4096)

        // And the guarded one still refuses: the unguarded fetches did not open anything either.
        let reached = try server.requests().count
        #expect(throws: DownloadError.self) { try download(guarded, server.url("/episode"), into: folder) }
        #expect(try server.requests().count == reached)
    }
}
