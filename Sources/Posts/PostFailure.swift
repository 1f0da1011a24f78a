/// Why a post page gave no post: each said with its own sentence, never a page of the
/// network's own chrome saved as if it were the post.
public enum PostFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The login wall, or cookies the site no longer accepts.
    case needsLogin
    /// "Something went wrong. Try reloading."
    case siteError
    case rateLimited
    case deleted
    case protected
    case ageRestricted
    /// The page held no post at all (not a post page, or a layout Piper does not know).
    case noPost

    public var description: String {
        switch self {
        case .needsLogin: return "Open Piper to connect your X account"
        case .siteError: return "X showed its error page (\"Something went wrong. Try reloading.\"); try again later"
        case .rateLimited: return "X is limiting requests from this account for now; try again in a few minutes"
        case .deleted: return "This post was deleted, or the link is wrong"
        case .protected: return "This post is from a protected account; only its approved followers can see it"
        case .ageRestricted: return "X shows this post only to signed-in adults: connect an X account whose age is set"
        case .noPost: return "No post was found on this page"
        }
    }

    /// True for the failures a new cookie file can fix.
    public var isLogin: Bool { self == .needsLogin || self == .ageRestricted }
}
