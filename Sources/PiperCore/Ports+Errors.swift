import Foundation

/// Why a page could not be loaded. The description is the sentence the user sees.
public enum LoadError: PiperError, Equatable {
    /// The host could not be reached (DNS, refused connection, TLS failure...).
    case unreachable(URL, String)
    case timedOut(URL, seconds: Int)
    /// The server answered with an HTTP error status.
    case httpStatus(URL, Int)
    case tooLarge(URL, limitBytes: Int)
    case tooManyRedirects(URL)
    /// The page needs a browser engine and Chromium is not installed.
    case browserMissing
    /// The browser started but failed (crash, protocol error, navigation error).
    case browserFailed(String)
    /// Every tab of the server's browser stayed busy with other shares for `seconds`.
    case browserBusy(seconds: Int)
    case other(URL, String)

    /// The sentence a user sees.
    public var description: String {
        switch self {
        case .unreachable(let url, let why): return "Cannot reach \(url.absoluteString): \(why)"
        case .timedOut(let url, let s): return "Loading \(url.absoluteString) timed out after \(s) s"
        case .httpStatus(let url, let status): return "The page \(url.absoluteString) answered HTTP \(status)"
        case .tooLarge(let url, let limit): return "The page \(url.absoluteString) is larger than \(limit / 1_000_000) MB"
        case .tooManyRedirects(let url): return "Too many redirects loading \(url.absoluteString)"
        case .browserMissing:
            return "This page needs a browser engine, but Chromium is not installed. Install it with: apt-get install chromium"
        case .browserFailed(let why): return "The browser could not load the page: \(why)"
        case .browserBusy(let s):
            return "The server's browser is busy: every tab was loading another page for \(s) s. Try again in a moment"
        case .other(let url, let why): return "Cannot load \(url.absoluteString): \(why)"
        }
    }

    /// Unreachable, timed out, a missing or busy browser are "unavailable"; the rest "other".
    public var category: ErrorCategory {
        switch self {
        case .unreachable, .timedOut, .browserMissing, .browserBusy: return .unavailable
        default: return .other
        }
    }
}

/// Why no article came out of a page.
public enum ExtractionError: PiperError, Equatable {
    /// The page loaded but holds no article (too little readable content, a login wall...).
    case notAnArticle(URL)
    /// The extraction engine itself failed.
    case engineFailed(URL, String)

    /// The sentence a user sees.
    public var description: String {
        switch self {
        case .notAnArticle(let url): return "Extraction failed: no article found at \(url.absoluteString)"
        case .engineFailed(let url, let why): return "Extraction failed for \(url.absoluteString): \(why)"
        }
    }
    /// A page without an article is bad input data.
    public var category: ErrorCategory { .badData }
}

/// Why the backend did not save an article. Every description starts with "Failed to save:".
public enum SaveError: PiperError, Equatable {
    /// 5xx from the backend.
    case server(status: Int, message: String?)
    /// 4xx from the backend, with its `error` message.
    case rejected(status: Int, message: String)
    /// A 2xx answer whose body is not `{"url": "..."}`.
    case malformedResponse(String)
    case timedOut(seconds: Int)
    case unreachable(URL, String)

    /// The reason alone, for `Failed to save: <reason>`.
    public var reason: String {
        switch self {
        case .server(let status, let message):
            return message.map { "the server answered \(status): \($0)" } ?? "the server answered \(status)"
        case .rejected(_, let message): return message
        case .malformedResponse(let why): return "could not parse the server's answer (\(why))"
        case .timedOut(let s): return "the server did not answer within \(s) s (timeout)"
        case .unreachable(let url, let why): return "cannot reach \(url.absoluteString) (\(why))"
        }
    }

    /// `Failed to save: <reason>`.
    public var description: String { Messages.failedToSave(reason) }

    /// A backend that fails, times out, cannot be reached or answers 429 is "unavailable";
    /// other refusals are "other".
    public var category: ErrorCategory {
        switch self {
        case .server, .timedOut, .unreachable: return .unavailable
        // Too many saves: the backend is unavailable to us for now, try again later.
        case .rejected(429, _): return .unavailable
        case .rejected, .malformedResponse: return .other
        }
    }
}

/// The clipboard could not be set. Reported, but a save still succeeds.
public struct ClipboardError: PiperError, Equatable {
    /// What went wrong, as the clipboard tool said.
    public let message: String
    /// A clipboard error with `message`.
    public init(_ message: String) { self.message = message }
    /// The sentence a user sees.
    public var description: String { message }
    /// Other failure.
    public var category: ErrorCategory { .other }
}
