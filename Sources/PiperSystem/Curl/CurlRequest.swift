import Foundation

/// Everything an adapter may choose about one libcurl transfer, as a value. `CurlEasy(request)`
/// turns it into libcurl options in one place (`CurlEasy+Request`), so the adapters above
/// PiperSystem say what they want (follow redirects, a user agent, a stall floor, the fetch
/// guard) and never name a libcurl option; `scripts/check-layers` keeps it so.
///
/// A field left at its default leaves libcurl's own default alone (no timeout, no redirects
/// followed, no cookie engine, libcurl's buffer size, no guard).
package struct CurlRequest: Sendable {
    /// What the request does.
    package enum Method: Sendable, Equatable {
        case get
        /// Headers only (libcurl's "no body").
        case head
        /// A POST with this body (copied by libcurl, sized explicitly, so any byte may occur).
        case post(Data)
    }

    /// Whether redirects are followed, and how many.
    package enum Redirects: Sendable, Equatable {
        /// A 3xx answer is the response.
        case none
        /// Location is followed up to `max` hops (http and https only, as every transfer).
        case follow(max: Int)

        /// Piper's one rule for fetching a link a user shared (page, media, probe): up to 10
        /// hops, enough for shorteners and CDNs, few enough that a loop fails quickly.
        package static let standard = Redirects.follow(max: 10)
    }

    /// A transfer that stays below `bytesPerSecond` for `seconds` in a row fails as a timeout
    /// (`CurlError.isTimeout`): a stalled server is given up on without a total deadline.
    package struct SpeedFloor: Sendable, Equatable {
        package var bytesPerSecond: Int
        package var seconds: Int

        package init(bytesPerSecond: Int, seconds: Int) {
            self.bytesPerSecond = bytesPerSecond
            self.seconds = seconds
        }
    }

    /// The bytes asked for with `Range`: from `first` to `last` (inclusive), or to the end.
    package struct ByteRange: Sendable, Equatable {
        package var first: Int64
        package var last: Int64?

        package init(from first: Int64, through last: Int64? = nil) {
            self.first = first
            self.last = last
        }

        /// The range as libcurl takes it ("100-", "0-0").
        var text: String { "\(first)-\(last.map(String.init) ?? "")" }
    }

    package var url: URL
    package var method: Method = .get
    /// Extra header lines ("Name: value"; "Name:" removes one libcurl would send).
    package var headers: [String] = []
    package var redirects: Redirects = .none
    package var userAgent: String?
    /// Seconds to wait for the connection (nil: libcurl's 300 s).
    package var connectTimeout: TimeInterval?
    /// Seconds the whole transfer may take, redirects included (nil or 0: no limit).
    package var totalTimeout: TimeInterval?
    package var speedFloor: SpeedFloor?
    package var range: ByteRange?
    /// Asks for every content encoding this libcurl can decode (gzip, brotli, zstd) and hands
    /// the receiver the decoded body. Off: the body arrives as the server encoded it.
    package var decodesContent = false
    /// nil: no cookie engine. A list (empty too) turns libcurl's engine on, so cookies a
    /// response sets are sent on its redirects, and starts it with these Netscape lines, each
    /// sent only to its own domain (`NetscapeCookies.line(for:)`).
    package var cookies: [String]?
    /// Bytes libcurl hands the receiver at most per call (nil: libcurl's 16 KiB). Larger
    /// chunks mean fewer writes for a big download.
    package var bufferSize: Int?
    /// Checks every address this transfer connects to (each redirect hop, each address a name
    /// resolves to); nil connects anywhere. The fetchers `piper serve` runs for its clients
    /// carry its SSRF guard; the CLI's own fetches carry none.
    package var connectionGuard: CurlConnectionGuard?

    package init(url: URL) {
        self.url = url
    }
}

/// The address policy one transfer's connections are checked against, as a value the fetcher
/// carries (never process-wide state: a fetcher built without one is not affected by one built
/// with one). It sees the numeric address each socket is about to connect to, right before
/// libcurl opens it, so a second DNS answer cannot differ from the one checked.
public struct CurlConnectionGuard: Sendable {
    private let check: @Sendable (_ numericAddress: String) -> String?

    /// `check` answers nil to allow an address ("127.0.0.1", "::1"), or the sentence that
    /// refuses it: the transfer then fails with `CURLE_REMOTE_ACCESS_DENIED` and that sentence,
    /// which the downloader treats as final (no retries).
    package init(_ check: @escaping @Sendable (_ numericAddress: String) -> String?) {
        self.check = check
    }

    /// Why connecting to `numericAddress` is refused, or nil when it is allowed.
    package func refusal(of numericAddress: String) -> String? { check(numericAddress) }
}
