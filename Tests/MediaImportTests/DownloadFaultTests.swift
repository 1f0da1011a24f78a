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

    /// The validator the file was first sent with must come back in the 206: a server that
    /// drops its ETag (and ignores If-Range) resumes another version.
    @Test func aResumeThatDropsTheValidatorStartsAgain() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        let old = try Fixtures.bytes("sample.aiff")
        // Another version of the same size (so no size change gives it away): its audio differs
        // before and after the resume point.
        var new = old
        for i in 1_000..<new.count where i % 7 == 0 { new[i] ^= 0x5A }
        try server.route("/d.aiff", .init(body: old, etag: "\"one\"", lastModified: nil),
                         faults: [.resetAfter(bytes: 60_000, times: 1), .ignoreIfRange,
                                  .replace(with: .init(body: new, etag: nil, lastModified: nil), afterRequests: 1)])
        let file = try home.partialFile()
        _ = try Downloader(settings: fast).download(DownloadRequest(url: server.url("/d.aiff"), partialFile: file))
        #expect(Array(try Data(contentsOf: file)) == new, "not the old prefix with the new tail spliced on")
        let requests = try server.requests("/d.aiff")
        #expect(requests.count == 3, "fresh, a resume answered without the validator, restart")
        #expect(requests[1].header("if-range") == "\"one\"")
        #expect(requests[2].header("range") == nil)
    }

    /// A server that never sends a validator cannot prove a resume: a small partial file is
    /// fetched again whole.
    @Test func withoutAnyValidatorASmallPartialFileIsFetchedAgain() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        let old = try Fixtures.bytes("sample.aiff")
        let new = try Fixtures.bytes("sample.caf")
        try server.route("/n.aiff", .init(body: old, etag: nil, lastModified: nil),
                         faults: [.resetAfter(bytes: 60_000, times: 1),
                                  .replace(with: .init(body: new, etag: nil, lastModified: nil), afterRequests: 1)])
        let file = try home.partialFile()
        _ = try Downloader(settings: fast).download(DownloadRequest(url: server.url("/n.aiff"), partialFile: file))
        #expect(Array(try Data(contentsOf: file)) == new)
        let requests = try server.requests("/n.aiff")
        #expect(requests.count == 2)
        #expect(requests[1].header("range") == nil, "no Range without a validator or an overlap to check")
    }

    /// A large partial file without a validator resumes only after the last 64 KiB before the
    /// resume point came back equal; when they differ the file changed, and it starts again.
    @Test func withoutAValidatorALargeResumeChecksItsOverlap() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        var random = SeededRandom(seed: 42)
        let head = try Fixtures.bytes("sample.aiff")
        let same = head + (0..<3_000_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        try server.route("/same.aiff", .init(body: same, etag: nil, lastModified: nil), faults: [.shortBody(bytes: 2_000_000, times: 1)])
        let file = try home.partialFile()
        _ = try Downloader(settings: fast).download(DownloadRequest(url: server.url("/same.aiff"), partialFile: file))
        #expect(Array(try Data(contentsOf: file)) == same, "the same version, resumed")
        let resumed = try server.requests("/same.aiff")
        #expect(resumed.count == 2)
        let range = try #require(resumed.last?.header("range"))
        let start = try #require(Int(range.dropFirst("bytes=".count).dropLast()))
        #expect(start > 1_000_000 && start < 2_000_000, "\(range): the overlap before the resume point")

        let changed = head + (0..<3_000_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        try server.route("/changed.aiff", .init(body: same, etag: nil, lastModified: nil),
                         faults: [.shortBody(bytes: 2_000_000, times: 1), .replace(with: .init(body: changed, etag: nil, lastModified: nil), afterRequests: 1)])
        let otherHome = try TempHome()
        let other = try otherHome.partialFile()
        _ = try Downloader(settings: fast).download(DownloadRequest(url: server.url("/changed.aiff"), partialFile: other))
        #expect(Array(try Data(contentsOf: other)) == changed, "the overlap differed: fetched again, not spliced")
        let requests = try server.requests("/changed.aiff")
        #expect(requests.count == 3 && requests[2].header("range") == nil, "\(requests.map(\.headers))")
    }

    /// Two Content-Lengths that disagree: which one framed the body is a guess, so the attempt
    /// fails with the reason rather than storing half a file as the whole.
    @Test func conflictingContentLengthsFailTheAttempt() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        let body = try Fixtures.bytes("sample.aiff")
        try server.route("/two.aiff", .init(body: body), faults: [.claimLength(Int64(body.count / 2)),
                                                                   .repeatedHeader("Content-Length", "\(body.count)")])
        let reason = failure { try Downloader(settings: fast).download(DownloadRequest(url: server.url("/two.aiff"), partialFile: try home.partialFile())) }
        #expect(reason?.contains("conflicting framing headers (content-length: \(body.count / 2) | \(body.count))") == true, "\(reason ?? "downloaded")")
        var headers = ResponseHeaders()
        for line in ["HTTP/1.1 206 Partial Content", "Content-Range: bytes 0-9/100", "Content-Range: bytes 0-9/50"] { headers.consume(line: line) }
        #expect(ResponseDecision.evaluate(headers, requestedOffset: 0, knownTotal: nil) == .fail(reason: "The server sent conflicting framing headers (content-range: bytes 0-9/100 | bytes 0-9/50); the file's length cannot be trusted"))
        var list = ResponseHeaders()
        for line in ["HTTP/1.1 200 OK", "Content-Length: 10, 20"] { list.consume(line: line) }
        #expect(list.conflicts == ["content-length: 10, 20"])
        var same = ResponseHeaders()
        for line in ["HTTP/1.1 200 OK", "Content-Length: 10", "Content-Length: 10"] { same.consume(line: line) }
        #expect(same.conflicts.isEmpty, "a repeat of the same value frames the body the same way (RFC 9110 allows it)")
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
