import Foundation
import PiperTestSupport
import Testing
@testable import MediaImport

/// The downloader against a real local server with faults injected.
@Suite(.ownThread) struct DownloadTests {
    var fast: DownloadSettings { FastSettings.download }

    @Test func downloadsWholeFileAndAsksForIdentityEncoding() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        let body = try Fixtures.bytes("sample.mp3")
        try server.route("/a/sample.mp3", .init(body: body))
        let file = try home.partialFile()
        let result = try Downloader(settings: fast).download(DownloadRequest(url: server.url("/a/sample.mp3"), partialFile: file))
        #expect(result.metadata.fileName == "sample.mp3")
        #expect(result.bytes == Int64(body.count))
        #expect(Array(try Data(contentsOf: file)) == body)
        #expect(try Fixtures.sha256(file) == Fixtures.sha256(Fixtures.media("sample.mp3")))
        let requests = try server.requests("/a/sample.mp3")
        #expect(requests.count == 1)
        #expect(requests.first?.header("accept-encoding") == "identity")
        #expect(requests.first?.header("range") == nil)
    }

    @Test func resumesAfterConnectionResetWithRangeAndIfRange() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        let body = try Fixtures.bytes("sample.flac")
        try server.route("/b.flac", .init(body: body, etag: "\"abc\""), faults: [.resetAfter(bytes: 50_000, times: 1)])
        let file = try home.partialFile()
        let result = try Downloader(settings: fast).download(DownloadRequest(url: server.url("/b.flac"), partialFile: file))
        #expect(result.attempts == 2)
        #expect(Array(try Data(contentsOf: file)) == body)
        let requests = try server.requests("/b.flac")
        try #require(requests.count == 2)
        let range = try #require(requests[1].header("range"))
        let offset = try #require(Int(range.dropFirst(6).dropLast()))
        #expect(offset > 0 && offset <= 50_000)
        #expect(requests[1].header("if-range") == "\"abc\"")
    }

    @Test func ifRangeFallsBackToLastModifiedWithoutStrongETag() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        let body = try Fixtures.bytes("sample.wav")
        try server.route("/c.wav", .init(body: body, etag: "W/\"weak\""), faults: [.resetAfter(bytes: 100_000, times: 1)])
        let file = try home.partialFile()
        _ = try Downloader(settings: fast).download(DownloadRequest(url: server.url("/c.wav"), partialFile: file))
        #expect(Array(try Data(contentsOf: file)) == body)
        #expect(try server.requests("/c.wav").last?.header("if-range") == "Mon, 02 Nov 2026 10:00:00 GMT")
    }

    @Test func retriesServerErrorsThenSucceeds() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        let body = try Fixtures.bytes("sample.ogg")
        try server.route("/d.ogg", .init(body: body), faults: [.status(500, times: 2), ])
        let file = try home.partialFile()
        let result = try Downloader(settings: fast).download(DownloadRequest(url: server.url("/d.ogg"), partialFile: file))
        #expect(result.attempts == 3)
        #expect(Array(try Data(contentsOf: file)) == body)
    }

    @Test func retriesTooManyRequestsAndTimeouts() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        let body = try Fixtures.bytes("sample.opus")
        try server.route("/e.opus", .init(body: body), faults: [.status(429, times: 1, retryAfter: "0"), .status(408, times: 2)])
        let file = try home.partialFile()
        let result = try Downloader(settings: fast).download(DownloadRequest(url: server.url("/e.opus"), partialFile: file))
        #expect(result.attempts == 3)
        #expect(Array(try Data(contentsOf: file)) == body)
    }

    @Test func givesUpAfterConfiguredAttempts() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        try server.route("/f.mp3", .init(body: [1, 2, 3]), faults: [.status(503, times: 100)])
        var settings = fast
        settings.attempts = 3
        let file = try home.partialFile()
        // Worth another try much later (the agent postpones the job), not a final failure.
        #expect(throws: DownloadError.unreachable("Gave up after 3 attempts: HTTP 503 Service Unavailable")) {
            try Downloader(settings: settings).download(DownloadRequest(url: server.url("/f.mp3"), partialFile: file))
        }
        #expect(try server.requests("/f.mp3").count == 3)
    }

    @Test(arguments: [401, 403, 404, 410])
    func clientErrorsFailAtOnce(status: Int) throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        try server.route("/g.mp3", .init(body: [1]), faults: [.status(status, times: 100)])
        let file = try home.partialFile()
        do {
            _ = try Downloader(settings: fast).download(DownloadRequest(url: server.url("/g.mp3"), partialFile: file))
            Issue.record("expected a failure")
        } catch let error as DownloadError {
            #expect(error.description.contains("HTTP \(status)"))
        }
        #expect(try server.requests("/g.mp3").count == 1)
    }

    @Test func changedETagRestartsFromZero() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        let old = try Fixtures.bytes("sample.aiff")
        let new = try Fixtures.bytes("sample.caf")
        try server.route("/h.aiff", .init(body: old, etag: "\"one\""),
                     faults: [.resetAfter(bytes: 60_000, times: 1),
                              .replace(with: .init(body: new, etag: "\"two\"", lastModified: nil), afterRequests: 1)])
        let file = try home.partialFile()
        let result = try Downloader(settings: fast).download(DownloadRequest(url: server.url("/h.aiff"), partialFile: file))
        #expect(Array(try Data(contentsOf: file)) == new)
        #expect(result.metadata.etag == "\"two\"")
        let requests = try server.requests("/h.aiff")
        #expect(requests.last?.header("if-range") == "\"one\"", "\(requests.map(\.headers))")
    }

    @Test func rangeNotSatisfiableOnCompleteFileFinishes() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        let body = try Fixtures.bytes("sample.m4a")
        try server.route("/i.m4a", .init(body: body))
        let file = try home.partialFile()
        try Data(body).write(to: file)
        let result = try Downloader(settings: fast).download(
            DownloadRequest(url: server.url("/i.m4a"), partialFile: file, knownTotal: Int64(body.count), etag: "\"v1\"", fileName: "i.m4a"))
        #expect(result.bytes == Int64(body.count))
        #expect(Array(try Data(contentsOf: file)) == body)
        #expect(try server.requests("/i.m4a").count == 1)
    }

    @Test func rangeNotSatisfiableOnIncompleteFileRestarts() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        let body = try Fixtures.bytes("sample.m4b")
        try server.route("/j.m4b", .init(body: body), faults: [.always416])
        let file = try home.partialFile()
        try Data(body.prefix(1000)).write(to: file)
        let result = try Downloader(settings: fast).download(
            DownloadRequest(url: server.url("/j.m4b"), partialFile: file, knownTotal: Int64(body.count), etag: "\"v1\"", fileName: "j.m4b"))
        #expect(result.attempts == 2)
        #expect(try server.requests("/j.m4b").first?.header("if-range") == "\"v1\"")
        #expect(Array(try Data(contentsOf: file)) == body)
        #expect(try server.requests("/j.m4b").last?.header("range") == nil)
    }

    /// A stall gives the download's slot up (the agent tries it again soon); the next try
    /// resumes where it stopped.
    @Test func stalledTransferGivesUpThenResumes() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        let body = try Fixtures.bytes("sample.mp4")
        try server.route("/k.mp4", .init(body: body), faults: [.stall(afterBytes: 5_000, seconds: 20, times: 1)])
        let file = try home.partialFile()
        #expect(throws: DownloadError.self) { try Downloader(settings: fast).download(DownloadRequest(url: server.url("/k.mp4"), partialFile: file)) }
        #expect(try Data(contentsOf: file).count == 5_000, "the partial file is kept")
        let result = try Downloader(settings: fast).download(DownloadRequest(url: server.url("/k.mp4"), partialFile: file, etag: "\"v1\"",
                                                                             lastModified: "Mon, 02 Nov 2026 10:00:00 GMT", fileName: "k.mp4"))
        #expect(result.attempts == 1)
        #expect(Array(try Data(contentsOf: file)) == body)
        #expect(try server.requests("/k.mp4").last?.header("range") == "bytes=5000-")
    }

    @Test func htmlPageForMediaURLIsRejected() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        try server.route("/l.mp3", .init(body: try Fixtures.bytes("error-page-named.mp3"), contentType: "text/html; charset=utf-8"))
        try server.route("/m.mp3", .init(body: try Fixtures.bytes("error-page-named.mp3"), contentType: "application/octet-stream"))
        let file = try home.partialFile()
        for path in ["/l.mp3", "/m.mp3"] {
            do {
                _ = try Downloader(settings: fast).download(DownloadRequest(url: server.url(path), partialFile: file))
                Issue.record("expected \(path) to be rejected")
            } catch let error as DownloadError {
                #expect(error.description.contains("web page"))
            }
            #expect(try server.requests(path).count == 1)
        }
    }

    @Test func emptyFileIsRejected() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        try server.route("/n.mp3", .init(body: []))
        let file = try home.partialFile()
        #expect(throws: DownloadError.failed("The server sent an empty file (0 bytes)")) {
            try Downloader(settings: fast).download(DownloadRequest(url: server.url("/n.mp3"), partialFile: file))
        }
    }

    @Test func contentDispositionNamesTheFile() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        try server.route("/download", .init(body: try Fixtures.bytes("sample.mp3"),
                                        contentDisposition: "attachment; filename=\"x.mp3\"; filename*=UTF-8''..%2F..%2FCaf%C3%A9%20Talk.mp3"))
        let file = try home.partialFile()
        let result = try Downloader(settings: fast).download(DownloadRequest(url: server.url("/download"), partialFile: file))
        #expect(result.metadata.fileName == "Café Talk.mp3")
    }

    @Test func dripFedDownloadCompletes() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        let body = try Fixtures.bytes("sample.opus")
        try server.route("/o.opus", .init(body: body), faults: [.drip(chunk: 4096, interval: 0.01)])
        let file = try home.partialFile()
        _ = try Downloader(settings: fast).download(DownloadRequest(url: server.url("/o.opus"), partialFile: file))
        #expect(Array(try Data(contentsOf: file)) == body)
    }
}
