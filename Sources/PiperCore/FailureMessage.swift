import Foundation

/// Why a share or a download failed, in words for the person who shared it: one sentence that
/// says what happened and what they can do, with the technical text (libcurl's, Chromium's,
/// an HTTP status line) kept apart as `detail`, for a disclosure on a page, a `detail` field in
/// JSON and the log.
///
/// The causes are read from the technical text itself, as every surface has it (a journal row
/// keeps only its reason; a record made by another server only its error), so the same text
/// gets the same sentence wherever it is shown. A text no rule knows keeps its own words: it
/// is Piper's own sentence already (an SSRF refusal, a post's failure, a size limit).
public struct FailureMessage: Sendable, Equatable {
    /// What went wrong, as far as the technical text tells.
    public enum Cause: Sendable, Equatable {
        /// The site's name does not resolve.
        case nameNotFound
        /// The site refused the connection (nothing listens there, or it is down).
        case connectionRefused
        /// The secure connection failed: a bad or expired certificate, a failed handshake.
        case secureConnection
        /// The site did not answer in time.
        case timeout
        /// The site answered with an HTTP error status.
        case httpStatus(Int)
        /// The server's browser failed to open the page (`net::ERR_…`).
        case browser
        /// An X link and no X account connected.
        case xLogin
        /// The post is gone: deleted, or no such post.
        case postGone
        /// The link gave something that is not media (an HTML page, a PDF, an image).
        case notMedia
        /// Anything else: the text is shown as it is.
        case other
    }

    /// Where the sentence is read, which decides the way out it offers: on a server (the web
    /// app, `/api/shares`) the X account is connected on `/connect-x`; at the command line,
    /// `piper login`.
    public enum Surface: Sendable, Equatable { case server, commandLine }

    public let cause: Cause
    /// What happened, in words for people ("example.org is having trouble (HTTP 503)").
    public let happened: String
    /// What the person can do about it ("try again later"); nil when there is nothing to add.
    public let advice: String?
    /// The technical text, as the failing part said it.
    public let detail: String

    /// The page where the person can do what the sentence asks (connect X): a path of the server.
    public var actionPath: String? { cause == .xLogin ? Self.connectXPath : nil }

    /// The server's page where X cookies are connected.
    public static let connectXPath = "/connect-x"

    /// The sentence for `detail`, a failure reaching `url` (the site's name is taken from it,
    /// else from the first link in the text).
    public init(_ detail: String, url: String? = nil, surface: Surface = .server) {
        self.detail = detail
        cause = Self.cause(of: detail)
        (happened, advice) = Self.parts(cause, site: Self.site(url: url, detail: detail), detail: detail, surface: surface)
    }

    /// The one sentence: what happened; what to do.
    public var sentence: String { advice.map { "\(happened); \($0)" } ?? happened }

    /// The cause a technical text names, by the words libcurl, GnuTLS, Chromium, the downloader
    /// and Piper's own errors use (`FailureMessageTests` has one case of each).
    public static func cause(of detail: String) -> Cause {
        let text = detail.lowercased()
        func has(_ words: String...) -> Bool { words.contains { text.contains($0) } }
        // The server's own address policy says why it refused, whatever libcurl added after it.
        if has("refused to fetch from") { return .other }
        if detail == Messages.connectX || has("connect your x account", "needs your x account") { return .xLogin }
        if has("post was deleted", " post: it was deleted", "no such x post", "no such mastodon post", "no such bluesky post",
               "no such reddit post") { return .postGone }
        if has("net::err_name_not_resolved", "could not resolve host", "couldn't resolve host", "could not resolve proxy",
               "name or service not known", "temporary failure in name resolution") { return .nameNotFound }
        if has("err_cert_", "err_ssl_", "gnutls", "ssl certificate", "certificate", "ssl connect error", "tls handshake",
               "ssl_error", "server certificate verification failed") { return .secureConnection }
        if has("net::err_connection_refused", "connection refused", "couldn't connect to server", "could not connect to server",
               "failed to connect to", "could not connect to the server") { return .connectionRefused }
        if has("net::err_timed_out", "timed out", "timeout was reached", "the download stalled") { return .timeout }
        if has("net::err_") { return .browser }
        if let status = httpStatus(in: detail) { return .httpStatus(status) }
        if has("not media", "a web page instead of a media file", "a web page (") { return .notMedia }
        return .other
    }

    /// `HTTP 503` (the downloader's "HTTP 503 Service Unavailable", the loader's "answered HTTP
    /// 404") as a number from 400 to 599.
    static func httpStatus(in detail: String) -> Int? {
        var rest = detail[...]
        while let range = rest.range(of: "HTTP ") {
            let digits = rest[range.upperBound...].prefix(3)
            if digits.count == 3, digits.allSatisfy(\.isNumber), let status = Int(digits), (400...599).contains(status),
               rest[range.upperBound...].dropFirst(3).first?.isNumber != true {
                return status
            }
            rest = rest[range.upperBound...]
        }
        return nil
    }

    /// The site's name (its host) from the link, else from the first link in the text.
    static func site(url: String?, detail: String) -> String? {
        if let url, let host = URL(string: url)?.host, !host.isEmpty { return host }
        guard let start = detail.range(of: "http://") ?? detail.range(of: "https://") else { return nil }
        let link = detail[start.lowerBound...].prefix { !$0.isWhitespace && $0 != ")" && $0 != "," }
        return URL(string: String(link))?.host
    }

    /// What happened, and what the person can do (nil when the text is Piper's own sentence).
    static func parts(_ cause: Cause, site: String?, detail: String, surface: Surface) -> (String, String?) {
        let name = site ?? "The site", inner = site ?? "the site"
        switch cause {
        case .nameNotFound:
            return ("Piper could not find \(inner)", "check the link for a typo, or try again later if the site is down")
        case .connectionRefused:
            return ("\(name) refused the connection, so it may be down", "try again later")
        case .secureConnection:
            return ("\(name)'s secure connection is broken (its certificate is not valid), so Piper did not load it",
                    "open the link in your browser to see what the site says")
        case .timeout:
            return ("\(name) took too long to answer", "try again later")
        case .httpStatus(let status):
            return httpParts(status, name)
        case .browser:
            return ("The server's browser could not open \(inner) (its connection failed)",
                    "try again, and if it keeps failing, check the server's network")
        case .xLogin:
            return surface == .server
                ? ("Piper needs your X account to read X posts", "connect it, then try again")
                : (Messages.connectX, nil)
        case .postGone, .other:
            return (detail, nil)
        case .notMedia:
            return ("The link gave a web page, not an audio or video file (often a sign-in or preview page)",
                    "share a direct link to the file, or the episode's page")
        }
    }

    static func httpParts(_ status: Int, _ name: String) -> (String, String?) {
        switch status {
        case 401, 403: return ("\(name) refused access (HTTP \(status)), so the page may need a login", "open it in your browser to check")
        case 404: return ("\(name) has nothing at this link (HTTP 404)", "check the link (the page may have moved or been removed)")
        case 410: return ("\(name) removed this for good (HTTP 410)", nil)
        case 429: return ("\(name) is limiting how often it is asked (HTTP 429)", "try again in a while")
        case 500...599: return ("\(name) is having trouble (HTTP \(status))", "try again later")
        default: return ("\(name) refused the request (HTTP \(status))", "check the link")
        }
    }
}
