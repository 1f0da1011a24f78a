import Foundation
import PiperTestSupport
import Testing
@testable import MediaImport

/// The queue keeps moving: a transfer below the speed floor gives its slot up (its partial
/// file kept, tried again later), and with six drip-fed links queued first a healthy link is in
/// the inbox within a minute, with the documented defaults.
@Suite(.ownThread, .timeLimit(.minutes(3)))
struct SpeedFloorTests {
    @Test func theDefaultsAreTheDocumentedOnes() {
        let defaults = DownloadSettings()
        #expect(defaults.stallBytesPerSecond == 1024 && defaults.stallSeconds == 20 && defaults.stallRetryDelay == 60)
        #expect(AgentSettings().slowAfter == 20 && AgentSettings().concurrency == 3)
        let set = DownloadSettings.from(environment: ["PIPER_DOWNLOAD_MIN_RATE": "2048", "PIPER_DOWNLOAD_STALL_RETRY_SECONDS": "5"])
        #expect(set.stallBytesPerSecond == 2048 && set.stallRetryDelay == 5)
    }

    @Test func aTransferBelowTheFloorGivesUpAndResumesLater() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        let body = try Fixtures.bytes("sample.ogg")
        try server.route("/drip.ogg", .init(body: body), faults: [.drip(chunk: 400, interval: 1)])
        var settings = DownloadSettings()
        settings.stallSeconds = 2   // the floor's window, shortened for the test; the rate is the default 1 KB/s
        let file = try home.partialFile()
        do {
            _ = try Downloader(settings: settings).download(DownloadRequest(url: server.url("/drip.ogg"), partialFile: file))
            Issue.record("a drip below the floor finished")
        } catch DownloadError.stalled(let reason) {
            #expect(reason.contains("stalled below 1.0 kB/s for 2 s"), "\(reason)")
        }
        let kept = try Data(contentsOf: file).count
        #expect(kept > 0 && kept < body.count, "the partial file is kept: \(kept) bytes")
        try server.route("/drip.ogg", .init(body: body))   // the server is well again
        let result = try Downloader(settings: settings).download(DownloadRequest(url: server.url("/drip.ogg"), partialFile: file,
                                                                                 etag: "\"v1\"", lastModified: nil, fileName: "drip.ogg"))
        #expect(Array(try Data(contentsOf: file)) == body && result.bytes == Int64(body.count))
        #expect(try server.requests("/drip.ogg").last?.header("range") == "bytes=\(kept)-", "it resumed")
    }

    @Test func sixDripsQueuedFirstDoNotHoldUpAHealthyLink() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        let drip = try Fixtures.bytes("sample.ogg")
        for n in 1...6 { try server.route("/drip\(n).ogg", .init(body: drip), faults: [.drip(chunk: 5, interval: 1)]) }
        let healthyBody = try Fixtures.bytes("sample.mp3") + [UInt8](repeating: 0, count: 8 << 20)
        try server.route("/healthy.mp3", .init(body: healthyBody))
        let journal = try Journal(state: home.state)
        func add(_ url: URL) throws -> String { try journal.add(url: url.absoluteString, source: url.absoluteString, kind: .url, folder: nil).entry.id }
        let drips = try (1...6).map { try add(server.url("/drip\($0).ogg")) }
        let healthy = try add(server.url("/healthy.mp3"))
        var settings = AgentSettings()   // the defaults: 3 slots, 1 KB/s over 20 s, 20 s before an extra slot
        settings.pollInterval = 0.1
        let state = home.state, configured = settings
        let started = Date()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? Agent(state: state, settings: configured, importer: nil).run(once: true)
            done.signal()
        }
        let landed = eventually(within: 60) { (try? journal.entry(id: healthy))??.state == .landed }
        let elapsed = Date().timeIntervalSince(started)
        #expect(landed, "the healthy link was still waiting after a minute")
        print("speed floor: the healthy 8 MB link landed \(String(format: "%.1f", elapsed)) s after six drips were queued ahead of it")
        let stalled = try drips.compactMap { try journal.entry(id: $0) }.filter { $0.reason?.contains("stalled below") == true }
        let reasons = try drips.compactMap { try journal.entry(id: $0)?.reason }
        #expect(stalled.count >= 3, "drips gave their slots up: \(reasons)")
        #expect(stalled.allSatisfy { $0.state == .queued && $0.notBefore != nil }, "they are queued again for later")
        #expect(stalled.allSatisfy { $0.bytes > 0 }, "with the bytes the server sent so far kept")
        #expect(done.wait(timeout: .now() + 90) == .success, "the one-shot agent leaves the postponed drips to the next one")
    }
}
