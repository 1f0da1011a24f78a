import Foundation

/// The ports a share runs through.
public struct SharePorts: Sendable {
    /// Reads the X/Twitter cookies.
    public var cookies: any CookieStore
    /// Loads pages over HTTP.
    public var httpLoader: any PageLoader
    /// nil when no browser engine is available.
    public var browserLoader: (any PageLoader)?
    /// Turns a loaded page into an article.
    public var extractor: any ContentExtractor
    /// Saves an article to the backend.
    public var saver: any SaveClient
    /// Receives the reader URL.
    public var clipboard: any Clipboard
    /// nil when this build has no media pipeline.
    public var media: (any MediaQueue)?
    /// Hears about each step, for progress lines.
    public var reporter: any ShareReporter
    /// nil: pages are never searched for media.
    public var mediaFinder: (any MediaFinder)?

    /// The ports of one share.
    public init(cookies: any CookieStore, httpLoader: any PageLoader, browserLoader: (any PageLoader)?,
                extractor: any ContentExtractor, saver: any SaveClient, clipboard: any Clipboard,
                media: (any MediaQueue)?, reporter: any ShareReporter, mediaFinder: (any MediaFinder)? = nil) {
        self.mediaFinder = mediaFinder
        self.cookies = cookies
        self.httpLoader = httpLoader
        self.browserLoader = browserLoader
        self.extractor = extractor
        self.saver = saver
        self.clipboard = clipboard
        self.media = media
        self.reporter = reporter
    }
}

/// Carries out a `ShareFlow`'s actions through the ports, one at a time, until it finishes.
public struct ShareDriver: Sendable {
    /// The ports it runs through.
    public let ports: SharePorts

    /// The clock the share's `timeLimit` is read on (tests give their own).
    let now: @Sendable () -> Date

    /// A driver over `ports`.
    public init(ports: SharePorts) { self.init(ports: ports, clock: { Date() }) }

    init(ports: SharePorts, clock: @escaping @Sendable () -> Date) {
        self.ports = ports
        now = clock
    }

    /// Runs one share to its end and returns how it ended (never throws: failures are results).
    public func run(_ input: ShareInput, options: ShareFlow.Options) -> ShareResult {
        run(input.target, options: options)
    }

    /// Runs the share of one target already picked out of its input.
    public func run(_ target: ShareTarget?, options: ShareFlow.Options) -> ShareResult {
        var options = options
        options.browserAvailable = options.browserAvailable && ports.browserLoader != nil
        var flow = ShareFlow(target: target, options: options)
        let started = now()
        var pending = flow.start()
        while !pending.isEmpty {
            let action = pending.removeFirst()
            if case .finish(let result) = action { return result }
            if let limit = options.timeLimit, action.waitsOnTheNetwork, now().timeIntervalSince(started) > limit {
                return .failure(ShareFailure.tookTooLong(seconds: Int(limit.rounded(.up))))
            }
            if let event = perform(action) {
                pending.append(contentsOf: flow.handle(event))
            }
        }
        return .failure(ShareFailure.noURL)  // unreachable: every path ends in .finish
    }

    func perform(_ action: ShareFlow.Action) -> ShareFlow.Event? {
        switch action {
        case .loadCookies:
            do { return .cookiesLoaded(try ports.cookies.load()) } catch { return .cookiesFailed(error) }
        case .loadPage(let url, _, .file):
            ports.reporter.progress("Reading \(url.path)…")
            do {
                return .pageLoaded(LoadedPage(requestedURL: url, contentType: nil, body: try Data(contentsOf: url), loader: .file))
            } catch {
                return .pageFailed(LoadError.other(url, "cannot read the file (\((error as NSError).localizedDescription))"), .file)
            }
        case .loadPage(let url, let cookies, let kind):
            let loader: (any PageLoader)? = kind == .browser ? ports.browserLoader : ports.httpLoader
            guard let loader else { return .pageFailed(LoadError.browserMissing, kind) }
            ports.reporter.progress(kind == .browser ? "Loading \(url.absoluteString) in Chromium…" : "Loading \(url.absoluteString)…")
            do { return .pageLoaded(try loader.load(url, cookies: cookies)) } catch { return .pageFailed(error, kind) }
        case .parse(let page):
            return .parsed(ports.extractor.parse(page))
        case .readRoute(let parsed):
            return .routeRead(ports.mediaFinder?.evidence(in: parsed) ?? RouteEvidence())
        case .searchFeeds(let feeds, let parsed):
            return .feedsSearched(ports.mediaFinder?.searchFeeds(feeds, for: parsed))
        case .followPlayers(let players, let parsed):
            return .playersFollowed(ports.mediaFinder?.followPlayers(players, for: parsed))
        case .checkReaderable(let page):
            return .readerableChecked(ports.extractor.isReaderable(page))
        case .extract(let page):
            do { return .extracted(try ports.extractor.extract(page)) } catch { return .extractionFailed(error) }
        case .save(let article):
            do { return .savedCopy(try ports.saver.saveCopy(article)) } catch { return .saveFailed(error) }
        case .copy(let text):
            do { return .copied(try ports.clipboard.copy(text)) } catch { return .copyFailed(error) }
        case .enqueueMedia(let link, let folder):
            guard let media = ports.media else { return .mediaFailed(ShareFailure.mediaUnavailable) }
            do { return .mediaQueued(try media.enqueue(link, into: folder)) } catch { return .mediaFailed(error) }
        case .enqueuePlaylist(let page, let kind, let folder, let limit):
            guard let media = ports.media else { return .mediaFailed(ShareFailure.mediaUnavailable) }
            do {
                let playlist = try Playlist.parse(page.body, kind: kind, base: page.finalURL, limit: limit)
                return .mediaQueued(try media.enqueue(playlist: playlist, source: page.requestedURL, into: folder))
            } catch {
                return .mediaFailed(error)
            }
        case .enqueueFile(let file, let folder):
            guard let media = ports.media else { return .mediaFailed(ShareFailure.mediaUnavailable) }
            do { return .mediaQueued(try media.enqueue(file: file, into: folder)) } catch { return .mediaFailed(error) }
        case .fetchPost(let url):
            ports.reporter.progress("Reading the post from \(url.host ?? url.absoluteString)…")
            do { return .postFetched(try ports.httpLoader.loadAnswer(url)) } catch { return .postFetchFailed(error) }
        case .readPost(let post):
            do { return .extracted(try ports.extractor.readPost(post)) } catch { return .extractionFailed(error) }
        case .progress(let message):
            ports.reporter.progress(message)
            return nil
        case .finish:
            return nil
        }
    }
}

extension ShareFlow.Action {
    /// A step that loads from the network: where a share's `timeLimit` is checked.
    var waitsOnTheNetwork: Bool {
        switch self {
        case .loadPage(_, _, let kind): return kind != .file
        case .fetchPost, .followPlayers, .searchFeeds: return true
        default: return false
        }
    }
}
