import Foundation
import PiperTestSupport
import Testing
@testable import MediaImport

/// The pure parts of the downloader: response decisions, names, backoff.
@Suite(.ownThread) struct DownloadDecisionTests {
    func headers(_ status: Int, _ fields: [String: String] = [:]) -> ResponseHeaders {
        var h = ResponseHeaders()
        h.consume(line: "HTTP/1.1 \(status) X\r\n")
        for (k, v) in fields { h.consume(line: "\(k): \(v)\r\n") }
        return h
    }

    @Test func statusLineResetsFieldsAfterRedirect() {
        var h = ResponseHeaders()
        h.consume(line: "HTTP/1.1 302 Found\r\n")
        h.consume(line: "Location: /x\r\n")
        h.consume(line: "HTTP/1.1 200 OK\r\n")
        h.consume(line: "Content-Type: audio/mpeg\r\n")
        #expect(h.status == 200)
        #expect(h["location"] == nil)
        #expect(h.contentType == "audio/mpeg")
    }

    @Test func decisions() {
        #expect(ResponseDecision.evaluate(headers(200, ["Content-Length": "10"]), requestedOffset: 0, knownTotal: nil) == .writeFromStart(total: 10))
        #expect(ResponseDecision.evaluate(headers(200, ["Content-Length": "10"]), requestedOffset: 5, knownTotal: 10) == .writeFromStart(total: 10))
        #expect(ResponseDecision.evaluate(headers(206, ["Content-Range": "bytes 5-9/10"]), requestedOffset: 5, knownTotal: 10) == .append(total: 10))
        if case .restart = ResponseDecision.evaluate(headers(206, ["Content-Range": "bytes 0-9/10"]), requestedOffset: 5, knownTotal: 10) {} else {
            Issue.record("a 206 at the wrong offset must restart")
        }
        if case .restart = ResponseDecision.evaluate(headers(206, ["Content-Range": "bytes 5-19/20"]), requestedOffset: 5, knownTotal: 10) {} else {
            Issue.record("a 206 with a new total must restart")
        }
        if case .restart = ResponseDecision.evaluate(headers(206), requestedOffset: 5, knownTotal: nil) {} else {
            Issue.record("a 206 without Content-Range must restart")
        }
        #expect(ResponseDecision.evaluate(headers(416, ["Content-Range": "bytes */10"]), requestedOffset: 10, knownTotal: nil) == .rangeNotSatisfiable(total: 10))
        #expect(ResponseDecision.evaluate(headers(503, ["Retry-After": "7"]), requestedOffset: 0, knownTotal: nil)
                == .retry(reason: "HTTP 503 Service Unavailable", retryAfter: "7"))
        #expect(ResponseDecision.evaluate(headers(404), requestedOffset: 0, knownTotal: nil) == .fail(reason: "HTTP 404 Not Found"))
        #expect(ResponseDecision.evaluate(headers(418), requestedOffset: 0, knownTotal: nil) == .fail(reason: "HTTP 418"))
        // The Content-Type alone decides nothing: the first bytes do (see DownloadFaultTests).
        #expect(ResponseDecision.evaluate(headers(200, ["Content-Type": "text/html"]), requestedOffset: 0, knownTotal: nil) == .writeFromStart(total: nil))
    }

    @Test func contentRangeParsing() {
        #expect(ContentRange("bytes 0-99/1000") == ContentRange("bytes 0-99/1000"))
        #expect(ContentRange("bytes 0-99/1000")?.total == 1000)
        #expect(ContentRange("bytes */1000")?.start == nil)
        #expect(ContentRange("bytes */1000")?.total == 1000)
        #expect(ContentRange("bytes 5-1/10") == nil)
        #expect(ContentRange("items 0-1/2") == nil)
    }

    @Test func contentDispositionNames() {
        #expect(DownloadFileName.fromContentDisposition("attachment; filename=\"a;b.mp3\"") == "a;b.mp3")
        #expect(DownloadFileName.fromContentDisposition("attachment; filename*=UTF-8''na%C3%AFve%20song.mp3; filename=\"x.mp3\"") == "naïve song.mp3")
        #expect(DownloadFileName.fromContentDisposition("attachment; filename=\"C:\\\\Users\\\\me\\\\ep.m4b\"") == "ep.m4b")
        #expect(DownloadFileName.fromContentDisposition("attachment; filename=../../etc/passwd") == "passwd")
        #expect(DownloadFileName.fromContentDisposition("attachment; filename*=iso-8859-1'en'caf%E9.mp3") == "café.mp3")
        #expect(DownloadFileName.fromContentDisposition("inline") == nil)
    }

    @Test func sanitizing() {
        #expect(DownloadFileName.sanitize("..hidden.mp3") == "hidden.mp3")
        #expect(DownloadFileName.sanitize("a/b\\c.mp3") == "a_b_c.mp3")
        #expect(DownloadFileName.sanitize("bell\u{07}\nname.mp3") == "bellname.mp3")
        #expect(DownloadFileName.sanitize("...") == "download")
        #expect(DownloadFileName.sanitize("-rf.mp3") == "rf.mp3")
        let long = String(repeating: "é", count: 300) + ".m4b"
        let cut = DownloadFileName.sanitize(long)
        #expect(cut.utf8.count <= 200)
        #expect(cut.hasSuffix(".m4b"))
    }

    @Test func namesFromURLAndContentType() {
        let url = URL(string: "https://h.example/files/My%20Show%2001.mp3?x=1")!
        #expect(DownloadFileName.choose(contentDisposition: nil, url: url, contentType: "audio/mpeg") == "My Show 01.mp3")
        let bare = URL(string: "https://drive.google.com/uc?export=download&id=abc")!
        #expect(DownloadFileName.choose(contentDisposition: nil, url: bare, contentType: "audio/x-m4b") == "uc.m4b")
        let root = URL(string: "https://h.example/")!
        #expect(DownloadFileName.choose(contentDisposition: nil, url: root, contentType: "application/zip") == "download.zip")
        #expect(DownloadFileName.choose(contentDisposition: nil, url: root, contentType: nil) == "download")
    }

    @Test func backoffGrowsAndHonoursRetryAfter() {
        var settings = DownloadSettings()
        settings.retryBaseDelay = 1
        settings.retryMaxDelay = 10
        let policy = RetryPolicy(settings: settings)
        #expect(policy.delay(afterFailedAttempts: 1, retryAfter: nil, jitter: 0.5) == 1)
        #expect(policy.delay(afterFailedAttempts: 3, retryAfter: nil, jitter: 0.5) == 4)
        #expect(policy.delay(afterFailedAttempts: 3, retryAfter: nil, jitter: 0) == 2)
        #expect(policy.delay(afterFailedAttempts: 3, retryAfter: nil, jitter: 1) == 6)
        #expect(policy.delay(afterFailedAttempts: 9, retryAfter: nil, jitter: 0.5) == 10)
        #expect(policy.delay(afterFailedAttempts: 1, retryAfter: "42", jitter: 0.5) == 42)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let date = "Fri, 15 Jan 2027 08:00:30 GMT"
        #expect(RetryPolicy.parseRetryAfter(date, now: now) == 30)
        #expect(policy.delay(afterFailedAttempts: 1, retryAfter: "99999", jitter: 0.5) == settings.retryAfterCap)
    }

    @Test func landingCandidates() {
        #expect(Landing.candidate("a.mp3", 0) == "a.mp3")
        #expect(Landing.candidate("a.mp3", 2) == "a-2.mp3")
        #expect(Landing.candidate("noext", 1) == "noext-1")
    }

    @Test func progressLine() {
        let line = ProgressLine.format(name: "ep.mp3", bytes: 5_000_000, total: 10_000_000, bytesPerSecond: 1_000_000, width: 10)
        #expect(line == "ep.mp3  50% [#####     ] 5.0/10.0 MB  1.0 MB/s  ETA 0:05")
        #expect(ProgressLine.format(name: "x", bytes: 2_000_000, total: nil, bytesPerSecond: 0) == "x  2.0 MB  0.0 MB/s")
    }
}
