import Foundation
import PiperTestSupport
import Testing
@testable import MediaImport

/// The downloader against servers that misbehave on purpose: each case is a fault that once
/// imported corrupt data or kept a download going forever.
@Suite(.ownThread) struct DownloadFaultTests {
    var fast: DownloadSettings { FastSettings.download }

    func failure(_ body: () throws -> DownloadResult) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aServerIgnoringIfRangeYieldsTheNewVersionIntact() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        let old = try Fixtures.bytes("sample.aiff")
        let new = try Fixtures.bytes("sample.caf")
        try server.route("/h.aiff", .init(body: old, etag: "\"one\""),
                     faults: [.resetAfter(bytes: 60_000, times: 1), .ignoreIfRange,
                              .replace(with: .init(body: new, etag: "\"two\""), afterRequests: 1)])
        let file = try home.partialFile()
        let result = try Downloader(settings: fast).download(DownloadRequest(url: server.url("/h.aiff"), partialFile: file))
        #expect(Array(try Data(contentsOf: file)) == new, "not the old prefix with the new tail spliced on")
        #expect(result.metadata.etag == "\"two\"")
        let requests = try server.requests("/h.aiff")
        #expect(requests.count == 3, "fresh, resume answered 206 with another ETag, restart")
        #expect(requests[1].header("if-range") == "\"one\"")
        #expect(requests[2].header("range") == nil)
    }

    @Test func aChangedLastModifiedIsCaughtWhenItWasTheValidator() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        let old = try Fixtures.bytes("sample.wav")
        let new = try Fixtures.bytes("sample.aiff")
        try server.route("/w.wav", .init(body: old, etag: nil, lastModified: "Mon, 02 Nov 2026 10:00:00 GMT"),
                     faults: [.resetAfter(bytes: 70_000, times: 1), .ignoreIfRange,
                              .replace(with: .init(body: new, etag: nil, lastModified: "Tue, 03 Nov 2026 10:00:00 GMT"), afterRequests: 1)])
        let file = try home.partialFile()
        _ = try Downloader(settings: fast).download(DownloadRequest(url: server.url("/w.wav"), partialFile: file))
        #expect(Array(try Data(contentsOf: file)) == new)
        #expect(try server.requests("/w.wav")[1].header("if-range") == "Mon, 02 Nov 2026 10:00:00 GMT")
    }

    @Test func anUnderDeliveringServerEndsInAFailureWithinItsBudget() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        let body = try Fixtures.bytes("sample.flac")
        try server.route("/short.flac", .init(body: body), faults: [.shortBody(bytes: body.count / 2, times: .max), .always416])
        let file = try home.partialFile()
        let reason = try #require(failure { try Downloader(settings: fast).download(DownloadRequest(url: server.url("/short.flac"), partialFile: file)) })
        #expect(reason.hasPrefix("Gave up"), "\(reason)")
        let requests = try server.requests("/short.flac").count
        #expect(requests <= 2 * fast.attempts, "every restart counts: \(requests) requests")
        let kept = (try? Data(contentsOf: file))?.count ?? 0
        #expect(kept < body.count, "no file passes as complete")
    }

    @Test func progressWithoutEndHitsTheRequestCap() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        // Every answer delivers a little more and drops: progress each time, never the end.
        let body = try Fixtures.bytes("sample.caf")
        try server.route("/drop.caf", .init(body: body), faults: [.resetAfter(bytes: 2_000, times: .max)])
        var settings = fast
        settings.maxAttempts = 12
        let file = try home.partialFile()
        let reason = try #require(failure { try Downloader(settings: settings).download(DownloadRequest(url: server.url("/drop.caf"), partialFile: file)) })
        #expect(reason.contains("Gave up after 12 requests"), "\(reason)")
        #expect(try server.requests("/drop.caf").count == 12)
    }

    @Test func aBodyWithoutContentLengthIsCappedAtTheLimit() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        try server.route("/big.wav", .init(body: try Fixtures.bytes("sample.wav")), faults: [.noContentLength])
        var settings = fast
        settings.maxBytes = 100_000
        let file = try home.partialFile()
        let reason = try #require(failure { try Downloader(settings: settings).download(DownloadRequest(url: server.url("/big.wav"), partialFile: file)) })
        #expect(reason.contains("limit (PIPER_DOWNLOAD_MAX_BYTES)"), "\(reason)")
        #expect(try server.requests("/big.wav").count == 1, "a size refusal is final")
    }

    @Test func anAnnouncedSizeOverTheLimitIsRefusedBeforeAnyBody() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        try server.route("/huge.mp3", .init(body: try Fixtures.bytes("sample.mp3")), faults: [.claimLength(20_000_000_000)])
        let file = try home.partialFile()
        let reason = try #require(failure { try Downloader(settings: fast).download(DownloadRequest(url: server.url("/huge.mp3"), partialFile: file)) })
        #expect(reason == "The file is 20.0 GB, more than the 8 GiB limit (PIPER_DOWNLOAD_MAX_BYTES)")
    }

    @Test func aGzipEncodedMediaResponseIsRefusedWithItsReason() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        try server.route("/z.mp3", .init(body: try Fixtures.bytes("sample.mp3")), faults: [.header("Content-Encoding", "gzip")])
        let file = try home.partialFile()
        let reason = try #require(failure { try Downloader(settings: fast).download(DownloadRequest(url: server.url("/z.mp3"), partialFile: file)) })
        #expect(reason.contains("Content-Encoding: gzip"), "\(reason)")
    }

    @Test func aRequestDeadlineEndsADripThatStaysAboveTheStallFloor() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        try server.route("/drip.ogg", .init(body: try Fixtures.bytes("sample.ogg")), faults: [.drip(chunk: 5, interval: 0.2)])
        var settings = fast
        settings.attemptTimeout = 0.5
        settings.jobTimeout = 3
        let file = try home.partialFile()
        let reason = try #require(failure { try Downloader(settings: settings).download(DownloadRequest(url: server.url("/drip.ogg"), partialFile: file)) })
        #expect(reason.contains("PIPER_DOWNLOAD_JOB_TIMEOUT") || reason.contains("limit per request"), "\(reason)")
        #expect(try server.requests("/drip.ogg").count >= 2, "each request ends at its deadline and resumes")
    }

    @Test func aRealFileServedAsAWebPageIsKeptBecauseItsBytesSayWhatItIs() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        let opus = try Fixtures.bytes("sample.opus")
        try server.route("/ep.opus", .init(body: opus, contentType: "text/html; charset=utf-8"))
        let file = try home.partialFile()
        _ = try Downloader(settings: fast).download(DownloadRequest(url: server.url("/ep.opus"), partialFile: file))
        #expect(Array(try Data(contentsOf: file)) == opus, "Content-Type never overrides a successful sniff")
    }

    @Test func credentialsInTheLinkAuthenticate() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        let body = try Fixtures.bytes("sample.mp3")
        try server.route("/private/ep.mp3", .init(body: body), faults: [.basicAuth("listener:s3cret")])
        let file = try home.partialFile()
        let withCredentials = URL(string: "http://listener:s3cret@127.0.0.1:\(server.port)/private/ep.mp3")!
        _ = try Downloader(settings: fast).download(DownloadRequest(url: withCredentials, partialFile: file))
        #expect(Array(try Data(contentsOf: file)) == body)
        let reason = failure { try Downloader(settings: fast).download(DownloadRequest(url: server.url("/private/ep.mp3"), partialFile: file)) }
        #expect(reason == "HTTP 401 Unauthorized")
    }
}
