import PiperCore

/// Why a post gave nothing to save, on which network: each reason said with its own sentence,
/// naming the network, never a page of the network's own chrome saved as if it were the post.
public struct PostFailure: PiperError, Equatable {
    public enum Reason: Sendable, Equatable {
        /// The login wall, or cookies the site no longer accepts.
        case needsLogin
        /// The network failed to answer ("Something went wrong. Try reloading.", a 5xx).
        case siteError
        case rateLimited
        /// The post was deleted (the network says so).
        case deleted
        /// No such post: deleted, or a wrong link (the network cannot tell which).
        case notFound
        /// A block between the post's author and the reader hides it.
        case blocked
        /// The author's account is suspended.
        case suspended
        /// Only the author's approved followers can see it.
        case protected
        /// The account that wrote it no longer exists.
        case accountGone
        case ageRestricted
        /// Removed by someone other than its author: who (Reddit's moderators, Reddit).
        case removed(by: String)
        /// In a private community (Reddit).
        case privateCommunity
        /// In a quarantined community (Reddit), shown only to signed-in users who opt in.
        case quarantined
        /// In a community the network banned.
        case banned
        /// The page or answer held no post at all (not a post, or a layout Piper does not know).
        case noPost
        /// The network's answer is not in the shape Piper reads: what is missing.
        case unreadable(String)
    }

    public var reason: Reason
    public var network: PostNetwork

    public init(_ reason: Reason, on network: PostNetwork) {
        self.reason = reason
        self.network = network
    }

    public var description: String {
        let n = network.rawValue
        switch reason {
        case .needsLogin: return network == .x ? Messages.connectX : "\(n) shows this post only to signed-in users"
        case .siteError:
            return network == .x ? "X showed its error page (\"Something went wrong. Try reloading.\"); try again later"
                : "\(n) failed to answer for this post; try again later"
        case .rateLimited:
            return network == .x ? "X is limiting requests from this account for now; try again in a few minutes"
                : "\(n) is limiting requests for now; try again in a few minutes"
        case .deleted: return "This \(n) post was deleted"
        case .notFound: return "No such \(n) post: it was deleted, or the link is wrong"
        case .blocked: return "This \(n) post is hidden by a block between its author and the account reading it"
        case .suspended: return "This \(n) post is from a suspended account"
        case .protected: return "This \(n) post is from a protected account; only its approved followers can see it"
        case .accountGone: return "This \(n) post is from an account that no longer exists"
        case .ageRestricted: return "X shows this post only to signed-in adults: connect an X account whose age is set"
        case .removed(let who): return "This \(n) post was removed \(who)"
        case .privateCommunity: return "This \(n) post is in a private community; only its members can see it"
        case .quarantined: return "This \(n) post is in a quarantined community, which \(n) shows only to signed-in users who opt in"
        case .banned: return "This \(n) post is in a community \(n) banned"
        case .noPost: return "No \(n) post was found on this page"
        case .unreadable(let what): return "\(n)'s answer is not in the shape Piper reads (\(what)); Piper needs an update for it"
        }
    }

    /// Gone or hidden posts are bad data (exit 65, 422 from a server); a network that fails or
    /// limits, or answers in a new shape, is unavailable (69, 503); what the user's account
    /// must change is configuration (78, 409).
    public var category: ErrorCategory {
        switch reason {
        case .siteError, .rateLimited, .unreadable: return .unavailable
        case .needsLogin, .ageRestricted: return .configuration
        case .deleted, .notFound, .blocked, .suspended, .protected, .accountGone, .removed, .privateCommunity, .quarantined,
             .banned, .noPost:
            return .badData
        }
    }

    /// True for the failures a new cookie file can fix.
    public var isLogin: Bool { network == .x && (reason == .needsLogin || reason == .ageRestricted) }
}
