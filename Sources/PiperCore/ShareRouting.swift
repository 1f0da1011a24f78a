import Foundation

/// Which route a share target takes before anything is loaded, where that can be known, and
/// which command-line options can apply to a set of targets.
public enum ShareRouting {
    /// The two routes, plus refused.
    public enum Route: String, Sendable, Equatable {
        case article, media
        /// Refused at once: images are neither articles nor media Piper keeps.
        case image
        /// Known only after loading (an extension-less link: its Content-Type decides).
        case undecided
    }

    static let pageExtensions: Set<String> = ["html", "htm", "xhtml"]
    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "gif", "webp", "avif", "heic", "heif", "bmp", "tif", "tiff", "svg", "ico"]

    /// The route a target takes by what it is: a local page file is an article, any other
    /// local file media; a link by its extension (media, image) or its host (X/Twitter).
    public static func route(of target: ShareTarget) -> Route {
        switch target {
        case .file(let url):
            return pageExtensions.contains(url.pathExtension.lowercased()) ? .article : .media
        case .link(let url):
            if MediaLinks.hasMediaExtension(url) { return .media }
            if isImage(url) { return .image }
            if XLinks.isXLink(url) { return .article }
            return .undecided
        }
    }

    /// True for a link whose path ends in an image extension.
    public static func isImage(_ url: URL) -> Bool {
        imageExtensions.contains(url.pathExtension.lowercased())
    }

    /// True for an image `Content-Type`.
    public static func isImageContentType(_ contentType: String?) -> Bool {
        ContentType.mediaType(of: contentType)?.hasPrefix("image/") == true
    }

    /// An option that can apply to none of the targets is a usage error naming it: `--into`
    /// and `--again` belong to media, `--browser` to articles. Links whose route is undecided
    /// may take either.
    public static func checkOptions(targets: [ShareTarget], into: Bool, browser: Bool, again: Bool) throws {
        let routes = targets.map(route(of:))
        guard !routes.isEmpty else { return }
        let mayBeMedia = routes.contains { $0 == .media || $0 == .undecided }
        let mayBeArticle = routes.contains { $0 == .article || $0 == .undecided }
        if into, !mayBeMedia { throw UsageError("--into applies to media shares, and every item here is an article") }
        if again, !mayBeMedia { throw UsageError("--again applies to media shares, and every item here is an article") }
        if browser, !mayBeArticle { throw UsageError("--browser applies to article shares, and every item here is media") }
    }
}

/// Why a target was refused before anything was fetched.
public enum RoutingError: PiperError, Equatable {
    case image(String)

    /// The sentence a user sees.
    public var description: String {
        switch self {
        case .image(let link): return "\(link) is an image; Piper shares articles and audio or video files, not images"
        }
    }
    /// A refused target is bad input data.
    public var category: ErrorCategory { .badData }
}
