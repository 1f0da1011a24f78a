import Foundation

/// How a share ended.
public enum ShareResult: Sendable, Equatable {
    /// `expires` when the backend said how long the link lives; `alsoFound` when the page also
    /// names media it might be shared for ("share with --as media").
    case saved(url: URL, title: String, clipboard: ClipboardOutcome, expires: Date?, alsoFound: URL? = nil)
    case mediaQueued(MediaReceipt)
    case failure(any Error)

    /// Equal results; two failures are equal when their descriptions are.
    public static func == (a: ShareResult, b: ShareResult) -> Bool {
        switch (a, b) {
        case let (.saved(u1, t1, c1, e1, a1), .saved(u2, t2, c2, e2, a2)): return u1 == u2 && t1 == t2 && c1 == c2 && e1 == e2 && a1 == a2
        case let (.mediaQueued(r1), .mediaQueued(r2)): return r1 == r2
        case let (.failure(e1), .failure(e2)): return "\(e1)" == "\(e2)"
        default: return false
        }
    }

    /// The sentence for the user.
    public var message: String {
        switch self {
        case .saved: return Messages.saved
        case .mediaQueued(let receipt): return receipt.message
        case .failure(let error): return "\(error)"
        }
    }

    /// The kind of failure, or nil when the share succeeded (saved or queued).
    public var category: ErrorCategory? {
        switch self {
        case .saved, .mediaQueued: return nil
        case .failure(let error as PiperError): return error.category
        case .failure: return .other
        }
    }
}

/// What happened to the clipboard after a successful save.
public enum ClipboardOutcome: Sendable, Equatable {
    case copied(String)   // the mechanism, e.g. "xclip"
    case skipped          // --no-clipboard
    case failed(String)   // reported, but the save still succeeded
}

/// Share failures that belong to the flow itself (not to one port).
public enum ShareFailure: PiperError, Equatable {
    case noURL
    case connectX
    case mediaUnavailable
    /// `--as media` on a page that names no media file.
    case noMediaOnPage(String)
    /// `piper extract URL` on a link the flow routes to media (a media file, a feed, an image type).
    case notAPage(String)
    /// The share ran past its `timeLimit` (a server's share item).
    case tookTooLong(seconds: Int)

    /// The sentence a user sees.
    public var description: String {
        switch self {
        case .noMediaOnPage(let page): return "No media file found on \(page) (looked for JSON-LD, og:audio/og:video, <audio>/<video> and links to media files)"
        case .notAPage(let link): return "\(link) is media, not a page with an article"
        case .noURL: return Messages.noURL
        case .connectX: return Messages.connectX
        case .mediaUnavailable: return "This is a media link, but media downloads are not available in this build"
        case .tookTooLong(let seconds): return "The share took longer than \(seconds) seconds and was stopped before saving anything; try it again"
        }
    }

    /// No URL, no media on the page and not a page are bad data; the rest "other".
    public var category: ErrorCategory {
        switch self {
        case .noURL, .noMediaOnPage, .notAPage: return .badData
        case .connectX, .mediaUnavailable: return .other
        case .tookTooLong: return .unavailable
        }
    }
}
