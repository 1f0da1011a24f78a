import Foundation
import MediaImport
import PiperCore

/// What `POST /share` runs through, handed in by whoever starts the server (the CLI wires the
/// same adapters `piper share` uses). The save port is not here: the server stores articles in
/// its own store (`StoreSaveClient`).
public struct ShareServices: Sendable {
    public var cookies: any CookieStore
    public var httpLoader: any PageLoader
    /// nil: shares never load pages in a browser (the connection guard cannot see its fetches).
    public var browserLoader: (any PageLoader)?
    public var extractor: any ContentExtractor
    /// Finds the media an episode page names (nil: pages are always articles).
    public var mediaFinder: (any MediaFinder)?
    public var media: (any MediaQueue)?
    /// Live state of queued media jobs, for the home page and `/api/shares`.
    public var jobs: (any MediaJobs)?
    /// The SSRF policy every share's fetches are checked against.
    public var fetchGuard: FetchGuard
    /// The proxy the browser's every connection goes through (kept for the server's life).
    public var browserProxy: GuardedProxy?
    /// The state folder: the share token, uploads.
    public var state: StateFolder
    /// Who may share: the same database as the saves (nil: the state folder's SQLite file).
    public var credentials: (any CredentialStore)?
    /// The library's catalog in the server's store (`--postgres`: one library folder every
    /// server mounts); nil: the state folder's `library.sqlite`.
    public var catalog: (any CatalogStore & Sendable)?
    /// Uploaded files larger than this are refused with 413 while streaming.
    public var maxUploadBytes: Int64 = 2 << 30
    /// Shares per minute per device once its burst is spent (0 disables).
    public var sharesPerMinute: Double = ShareServices.defaultSharesPerMinute
    public static let defaultSharesPerMinute: Double = 30
    public var shareBurst: Double = 30
    /// Which links are posts (X's extra hosts, loaded in the browser as X is; Bluesky's and
    /// Reddit's hosts and API addresses), as for `piper share`.
    public var posts = PostLinks()
    /// Where follows are kept when every server shares them (`--postgres`); nil: the state
    /// folder's download journal.
    package var follows: (any FollowStore & Sendable)?

    public init(cookies: any CookieStore, httpLoader: any PageLoader, browserLoader: (any PageLoader)?,
                extractor: any ContentExtractor, media: (any MediaQueue)?, jobs: (any MediaJobs)?,
                fetchGuard: FetchGuard, state: StateFolder) {
        self.cookies = cookies
        self.httpLoader = httpLoader
        self.browserLoader = browserLoader
        self.extractor = extractor
        self.media = media
        self.jobs = jobs
        self.fetchGuard = fetchGuard
        self.state = state
    }
}

/// Saves a shared article straight into the server's store, through the same validation and
/// sanitizing as `POST /save`.
struct StoreSaveClient: SaveClient {
    let store: any Store
    let publicURL: LateValue
    let ttl: TimeInterval
    let clock: @Sendable () -> Date

    func save(_ article: ExtractedArticle) throws -> URL { try saveCopy(article).url }

    func saveCopy(_ article: ExtractedArticle) throws -> SaveReceipt {
        let input: SaveInput
        do {
            input = try SaveInput(article: article.fittingSaveRules())
        } catch let error as HTTPError {
            throw SaveError.rejected(status: error.status, message: error.message)
        }
        let (saved, _) = try SaveRoute.prepare(input, now: clock(), ttl: ttl, log: nil)
        do {
            try store.insert(saved)
        } catch {
            throw SaveError.server(status: 500, message: "Could not store the article; nothing was saved")
        }
        guard let url = URL(string: "\(publicURL.get())/\(saved.id)") else {
            throw SaveError.server(status: 500, message: "The public URL is not a URL")
        }
        return SaveReceipt(url: url, expires: saved.expiresAt)
    }
}
