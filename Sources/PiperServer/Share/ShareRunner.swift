import Foundation
import PiperCore

/// One share the server ran: what came in, how it ended, and for media the job to follow.
public struct ShareRecord: Sendable, Equatable, Codable {
    /// `duplicate`: already in the library (nothing was queued; `libraryPath` says where).
    public enum Status: String, Sendable, Codable { case saved, queued, duplicate, failed }
    public var id: String
    public var created: Date
    public var device: String
    public var source: String?
    public var status: Status
    /// The reader URL of a saved article.
    public var url: String?
    public var title: String?
    public var message: String
    /// Why it failed, as a sentence for people (`FailureMessage`); `detail` is the technical text.
    public var error: String?
    public var detail: String?
    /// The download journal's id of a media share.
    public var job: String?
    public var expires: Date?
    /// The HTTP status the share answers with.
    public var httpStatus: Int
    /// Where a duplicate already is in the library.
    public var libraryPath: String?
    /// The media file a page named (an episode page's audio), when the link was a page.
    public var media: String?
    /// The link was a podcast feed: its result page offers to follow the show.
    public var feed: Bool?
    /// True for an uploaded file (its `source` is the file's own name).
    public var uploaded: Bool?
    /// Media a saved article's page also names ("share with --as media" to download it instead).
    public var alsoFound: String?
    /// A media share's job as last seen in the journal of the server that runs it (nil: not
    /// seen since it was queued), so a server without that journal still tells where it stands.
    public var progress: MediaJobState?
}

/// Runs one share server-side with the same `ShareDriver` and ports as `piper share` (the
/// article saved into this server's store, media into its journal), keeping the recent ones
/// (`ShareHistory`, in the store).
///
/// `@unchecked Sendable`: the follower timer is set up in `init` and afterwards only
/// cancelled, which Dispatch allows from any thread.
final class ShareRunner: @unchecked Sendable {
    let services: ShareServices
    let driver: ShareDriver
    let history: ShareHistory
    private let follower: any DispatchSourceTimer

    /// How often the server writes its media jobs' progress into the ledger.
    static let followInterval: TimeInterval = 2

    init(services: ShareServices, saver: any SaveClient, ledger: any ShareLedger) {
        self.services = services
        history = ShareHistory(limit: 50, ledger: ledger, state: services.state)
        follower = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "piper.share-follower"))
        driver = ShareDriver(ports: SharePorts(
            cookies: services.cookies, httpLoader: services.httpLoader, browserLoader: services.browserLoader,
            extractor: services.extractor, saver: saver, clipboard: NoClipboard(), media: services.media,
            reporter: SilentReporter(), mediaFinder: services.mediaFinder))
        if services.jobs != nil {
            follower.schedule(deadline: .now() + Self.followInterval, repeating: Self.followInterval, leeway: .milliseconds(200))
            follower.setEventHandler { [weak self] in self?.followJobs() }
            follower.resume()
        }
    }

    deinit {
        follower.cancel()
        // A source never resumed (no jobs to follow) must be resumed before it is released, or
        // libdispatch traps: a runner without jobs, let go (a server stopped in-process).
        if services.jobs == nil { follower.resume() }
    }

    /// Where a media share's job stands: this server's journal when the job is in it, else the
    /// progress the server running it last wrote into the ledger.
    func progress(of record: ShareRecord) -> MediaJobState? {
        guard let job = record.job else { return nil }
        return services.jobs?.state(of: job) ?? record.progress
    }

    /// Writes the progress of the followed media shares whose job is in this server's journal
    /// into the ledger, so every server on the database shows it (`ShareRecord.isFollowed`).
    func followJobs() {
        guard let jobs = services.jobs else { return }
        let followed = (try? history.ledger.followedShares(limit: ShareLedgerRules.recordsKept)) ?? []
        for var record in followed {
            guard let job = record.job, let state = jobs.state(of: job), state != record.progress else { continue }
            record.progress = state
            history.update(record)
        }
    }

    /// Shares the first link in `items` (url, then text, then title: Android puts links in any),
    /// or `file` (an upload already on disk, shown as `fileName`: never a server path).
    func share(items: [String], file: URL?, fileName: String? = nil, device: String, now: Date = Date()) -> ShareRecord {
        // A path in a client's text names a file on the server: only uploads are files here.
        var target = file.map(ShareTarget.file) ?? ShareInput(items).target
        if file == nil, case .file? = target { target = nil }
        return share(target, fileName: fileName, device: device, now: now)
    }

    /// Shares one target as the request's items were read into it (never turned back into
    /// text): a link, or an upload already on disk shown as `fileName`.
    func share(_ target: ShareTarget?, fileName: String? = nil, device: String, now: Date = Date()) -> ShareRecord {
        let record = run(target, fileName: fileName, device: device, now: now)
        history.add(record)
        return record
    }

    /// Runs one target and returns its record, not yet kept (`share` keeps it; a retry replaces
    /// the record it retries).
    func run(_ target: ShareTarget?, fileName: String? = nil, device: String, now: Date = Date()) -> ShareRecord {
        var file: URL?
        if case .file(let url)? = target { file = url }
        let source = file != nil ? (fileName ?? file?.lastPathComponent) : target?.text
        var record = ShareRecord(id: DeviceRegistry.randomSecret().prefix(12).description, created: now, device: device,
                                 source: source, status: .failed, message: "", httpStatus: 500)
        if file != nil { record.uploaded = true }
        if case .link(let url)? = target {
            do {
                try services.fetchGuard.preflight(url)
            } catch let error as HTTPError {
                record.message = error.message
                record.error = error.message
                record.httpStatus = error.status
                return record
            } catch {}
        }
        // The flow decides, as for `piper share`, which links need Chromium (X/Twitter links); without
        // a browser loader it answers those with `LoadError.browserMissing`, made the server's sentence below.
        var options = ShareFlow.Options(browser: .auto, copyToClipboard: false, browserAvailable: services.browserLoader != nil)
        options.posts = services.posts
        options.timeLimit = Self.itemTimeLimit
        let result = driver.run(target, options: options)
        // (An empty input finishes as "No URL found in share input".)
        record.message = result.message
        switch result {
        case .saved(let url, let title, _, let expires, let alsoFound):
            record.status = .saved
            record.url = url.absoluteString
            record.title = title
            record.expires = expires
            record.alsoFound = alsoFound?.absoluteString
            record.httpStatus = 200
        case .mediaQueued(let receipt):
            record.status = .queued
            record.job = receipt.id
            record.feed = receipt.feed
            record.httpStatus = 202
            if file == nil, let media = URL(string: receipt.url)?.lastPathComponent, receipt.url != source, !media.isEmpty {
                record.media = media
            }
            if let path = receipt.alreadyInLibrary {
                record.status = .duplicate
                record.libraryPath = path
                record.httpStatus = 200
            }
        case .failure(LoadError.browserMissing) where services.browserLoader == nil:
            record.message = Self.needsBrowser
            record.error = Self.needsBrowser
            record.httpStatus = 422
        case .failure(let error):
            let failure = FailureMessage("\(error)", url: target?.text, surface: .server)
            record.message = failure.sentence
            record.error = failure.sentence
            // The spec's "Open Piper to connect …" is not shown to someone in Piper, not even as detail.
            record.detail = failure.detail == failure.sentence || failure.cause == .xLogin ? nil : failure.detail
            record.httpStatus = Self.status(for: error)
        }
        if record.status == .failed {
            // The technical text stays in the log whatever the page says.
            RequestLog.standardError.write("share \(record.id) failed (\(record.httpStatus)): \(source ?? "-"): \(record.detail ?? record.error ?? record.message)")
        }
        return record
    }

    /// Why a link that needs Chromium is refused when the server has none: the server loads such
    /// pages in its own Chromium behind its guarded proxy, so without one it cannot read them.
    static let needsBrowser = "This link needs a browser (Chromium), and this server has none; "
        + "install Chromium on the server (apt-get install chromium), or share it with 'piper share' on a machine that has it"

    /// How long one item of a share (a link) may take in all, from when it starts on a share
    /// thread: past it the item stops before its next load and answers 503, so a retry can run it.
    static let itemTimeLimit: TimeInterval = 120

    /// 400 for input the share cannot use, 422 for a page that holds nothing to save, 502 for
    /// a site that failed to load, 503 for one that is unavailable for now (X's error page, its
    /// rate limit, a server's browser busy with other shares), 409 for what the user's X account
    /// must change, 500 otherwise.
    static func status(for error: any Error) -> Int {
        switch error {
        case ShareFailure.noURL: return 400
        case is RoutingError, is ExtractionError: return 422
        case LoadError.browserBusy: return 503
        case is LoadError: return 502
        case ShareFailure.connectX: return 409
        default:
            switch (error as? PiperError)?.category {
            case .badData?: return 422
            case .unavailable?: return 503
            case .configuration?: return 409
            default: return 500
            }
        }
    }
}

/// The server has no clipboard; shares never ask for it.
struct NoClipboard: Clipboard {
    func copy(_ text: String) throws -> String { "none" }
}

/// Progress lines of server-side shares go nowhere (the access log has the request).
struct SilentReporter: ShareReporter {
    func progress(_ message: String) {}
}
