import Foundation
import PiperCore
import PiperTestSupport
import Testing

/// Every failure cause: the technical text as the failing part says it (libcurl, GnuTLS,
/// Chromium, the downloader, Piper's own errors), the cause read from it, and the one sentence
/// a person reads; the technical text is kept as the detail.
@Suite(.ownThread) struct FailureMessageTests {
    struct Case: Sendable, CustomStringConvertible {
        let detail: String
        let url: String?
        let cause: FailureMessage.Cause
        let sentence: String
        var description: String { detail }
    }

    static let cases: [Case] = [
        Case(detail: "Cannot reach https://nowhere.example/a: Could not resolve host: nowhere.example", url: nil, cause: .nameNotFound,
             sentence: "Piper could not find nowhere.example; check the link for a typo, or try again later if the site is down"),
        Case(detail: "The browser could not load the page: navigate: net::ERR_NAME_NOT_RESOLVED", url: "https://x.com/a/status/1",
             cause: .nameNotFound,
             sentence: "Piper could not find x.com; check the link for a typo, or try again later if the site is down"),
        Case(detail: "Gave up after 5 attempts: Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server",
             url: "http://127.0.0.1:9/ep.mp3", cause: .connectionRefused,
             sentence: "127.0.0.1 refused the connection, so it may be down; try again later"),
        Case(detail: "Gave up after 2 attempts: could not connect to the server", url: "http://127.0.0.1:9/ep.mp3", cause: .connectionRefused,
             sentence: "127.0.0.1 refused the connection, so it may be down; try again later"),
        Case(detail: "Gave up after 5 attempts: the download stalled or ran past its 6 h limit per request", url: "https://cdn.example/ep.mp3",
             cause: .timeout, sentence: "cdn.example took too long to answer; try again later"),
        Case(detail: "Cannot reach https://shop.example/: gnutls_handshake() failed: Internal error", url: nil, cause: .secureConnection,
             sentence: "shop.example's secure connection is broken (its certificate is not valid), so Piper did not load it; "
                + "open the link in your browser to see what the site says"),
        Case(detail: "SSL certificate problem: certificate has expired", url: "https://old.example/p", cause: .secureConnection,
             sentence: "old.example's secure connection is broken (its certificate is not valid), so Piper did not load it; "
                + "open the link in your browser to see what the site says"),
        Case(detail: "Loading https://slow.example/p timed out after 30 s", url: nil, cause: .timeout,
             sentence: "slow.example took too long to answer; try again later"),
        Case(detail: "HTTP 404 Not Found", url: "https://cdn.example/ep.mp3", cause: .httpStatus(404),
             sentence: "cdn.example has nothing at this link (HTTP 404); check the link (the page may have moved or been removed)"),
        Case(detail: "The page https://news.example/p answered HTTP 403", url: nil, cause: .httpStatus(403),
             sentence: "news.example refused access (HTTP 403), so the page may need a login; open it in your browser to check"),
        Case(detail: "HTTP 410 Gone", url: "https://cdn.example/old.mp3", cause: .httpStatus(410),
             sentence: "cdn.example removed this for good (HTTP 410)"),
        Case(detail: "Gave up after 5 attempts: HTTP 429 Too Many Requests", url: "https://cdn.example/ep.mp3", cause: .httpStatus(429),
             sentence: "cdn.example is limiting how often it is asked (HTTP 429); try again in a while"),
        Case(detail: "Gave up after 5 attempts: HTTP 503 Service Unavailable", url: "https://cdn.example/ep.mp3", cause: .httpStatus(503),
             sentence: "cdn.example is having trouble (HTTP 503); try again later"),
        Case(detail: "HTTP 451 Unavailable For Legal Reasons", url: "https://cdn.example/ep.mp3", cause: .httpStatus(451),
             sentence: "cdn.example refused the request (HTTP 451); check the link"),
        Case(detail: "The browser could not load the page: navigate: net::ERR_TUNNEL_CONNECTION_FAILED", url: "https://x.com/a/status/1",
             cause: .browser,
             sentence: "The server's browser could not open x.com (its connection failed); try again, and if it keeps failing, check the server's network"),
        Case(detail: "Open Piper to connect your X account", url: "https://x.com/a/status/1", cause: .xLogin,
             sentence: "Piper needs your X account to read X posts; connect it, then try again"),
        Case(detail: "No such X post: it was deleted, or the link is wrong", url: "https://x.com/a/status/1", cause: .postGone,
             sentence: "No such X post: it was deleted, or the link is wrong"),
        Case(detail: "This Mastodon post was deleted", url: nil, cause: .postGone, sentence: "This Mastodon post was deleted"),
        Case(detail: "The server sent a web page (text/html) instead of a media file; the link may point to a preview or sign-in page",
             url: "https://files.example/ep.mp3", cause: .notMedia,
             sentence: "The link gave a web page, not an audio or video file (often a sign-in or preview page); "
                + "share a direct link to the file, or the episode's page"),
        Case(detail: "Not a media file: HTML page (probably an error or login page), not media", url: nil, cause: .notMedia,
             sentence: "The link gave a web page, not an audio or video file (often a sign-in or preview page); "
                + "share a direct link to the file, or the episode's page"),
        Case(detail: "Refused to fetch from 127.0.0.2: a loopback address", url: "http://127.0.0.2/", cause: .other,
             sentence: "Refused to fetch from 127.0.0.2: a loopback address"),
        Case(detail: "Cannot reach http://a.example/: Refused to fetch from 10.0.0.1: a private address (Failed to connect to a.example port 80)",
             url: "http://a.example/", cause: .other,
             sentence: "Cannot reach http://a.example/: Refused to fetch from 10.0.0.1: a private address (Failed to connect to a.example port 80)"),
    ]

    @Test(arguments: cases) func eachCauseHasItsSentence(_ example: Case) {
        let message = FailureMessage(example.detail, url: example.url)
        #expect(message.cause == example.cause)
        #expect(message.sentence == example.sentence)
        #expect(message.detail == example.detail, "the technical text is kept for the disclosure and the log")
        #expect(message.actionPath == (example.cause == .xLogin ? "/connect-x" : nil))
    }

    /// At the command line the X sentence is the spec's own, and `piper login` is the way.
    @Test func theCommandLineKeepsTheSpecsXSentence() {
        let message = FailureMessage(Messages.connectX, surface: .commandLine)
        #expect(message.cause == .xLogin && message.sentence == Messages.connectX)
        // The server's own sentence is read back as the same cause (a record keeps only it).
        #expect(FailureMessage.cause(of: FailureMessage(Messages.connectX).sentence) == .xLogin)
    }

    /// A status line's number is read only as a whole three-digit HTTP status (not a port, not 4040).
    @Test func onlyAWholeStatusIsRead() {
        #expect(FailureMessage.cause(of: "HTTP 4040 things") == .other)
        #expect(FailureMessage.cause(of: "HTTP 200 OK, then the body ended") == .other)
        #expect(FailureMessage.cause(of: "answered HTTP 502") == .httpStatus(502))
    }

    /// Postponed and retrying say what happened and when Piper tries again, in the reader's clock.
    @Test func aWaitingJobSaysWhyAndWhen() {
        let due = Date(timeIntervalSince1970: 1_800_000_300)
        let waiting = JobStatus(state: .postponed, failure: FailureMessage("Gave up after 5 attempts: HTTP 503 Service Unavailable",
                                                                           url: "https://cdn.example/ep.mp3"), nextAttempt: due)
        #expect(waiting.line { _ in "14:05" } == "postponed: cdn.example is having trouble (HTTP 503); Piper tries again at 14:05")
        #expect(waiting.reason == "cdn.example is having trouble (HTTP 503); try again later")
        #expect(waiting.isLive && waiting.isRetryable)
        #expect(JobStatus.iso8601(due) == "2027-01-15T08:05:00Z")
        let retrying = JobStatus(state: .retrying, failure: FailureMessage("HTTP 502 Bad Gateway"), nextAttempt: due)
        #expect(retrying.line { _ in "08:05" } == "retrying: The site is having trouble (HTTP 502); Piper tries again at 08:05")
        #expect(retrying.isLive && !retrying.isRetryable)
        #expect(JobStatus(state: .downloading, bytes: 42, total: 100).line { _ in "" } == "downloading 42 %")
        #expect(JobStatus(state: .imported, libraryPath: "Podcasts/ep.mp3").line { _ in "" } == "imported as Podcasts/ep.mp3")
    }
}
