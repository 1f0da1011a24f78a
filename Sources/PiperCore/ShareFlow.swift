import Foundation

/// The article share as a pure state machine: events in, actions out. `ShareDriver` carries the
/// actions out through the ports and feeds their results back as events. No I/O happens here,
/// so every path is testable without a network, a browser or a clipboard.
public struct ShareFlow: Sendable {
    /// What the user asked for, beside the input.
    public struct Options: Sendable, Equatable {
        /// When to load the page in the browser engine.
        public var browser: BrowserMode
        /// Whether the reader URL goes to the clipboard.
        public var copyToClipboard: Bool
        /// Library folder for media shares (`--into`).
        public var mediaFolder: String?
        /// Whether a browser engine (Chromium) is installed.
        public var browserAvailable: Bool
        /// How many of a feed's newest enclosures to download (nil: all; `--all`).
        public var feedLimit: Int? = 10
        /// `--as`: whether a page that names its media goes the media route.
        public var route: RoutePreference = .auto
        /// Which links are posts (`PostLinks`: X's hosts and the extra ones of `x-hosts` or
        /// `PIPER_X_HOSTS`, loaded in the browser; Bluesky's and Reddit's, read from their API
        /// without loading the page); only X's own hosts need the account's cookies.
        public var posts = PostLinks()
        /// How long the whole share may take, from its first step (a server's share item:
        /// `ShareRunner.itemTimeLimit`); nil: only each step's own timeouts bound it. Checked
        /// before each step that loads from the network (a page, a post's API, a player, the
        /// feeds), so a share ends at most one load's timeout past it, and a share stopped
        /// there has saved and queued nothing.
        public var timeLimit: TimeInterval?

        /// Options with the command line's defaults.
        public init(browser: BrowserMode = .auto, copyToClipboard: Bool = true, mediaFolder: String? = nil,
                    browserAvailable: Bool = true) {
            self.browser = browser
            self.copyToClipboard = copyToClipboard
            self.mediaFolder = mediaFolder
            self.browserAvailable = browserAvailable
        }
    }

    /// What the I/O side reports back after carrying out an action.
    public enum Event: Sendable {
        case cookiesLoaded(CookieJar)
        case cookiesFailed(any Error)
        case pageLoaded(LoadedPage)
        case pageFailed(any Error, LoaderKind)
        /// The page parsed once; every step after this reads the parse.
        case parsed(ParsedPage)
        /// What the page says about itself and the media it names.
        case routeRead(RouteEvidence)
        case readerableChecked(Bool)
        case extracted(ExtractedArticle)
        case extractionFailed(any Error)
        case saved(URL)
        /// A save whose answer also said when the link expires.
        case savedCopy(SaveReceipt)
        case saveFailed(any Error)
        case copied(String)
        case copyFailed(any Error)
        case mediaQueued(MediaReceipt)
        case mediaFailed(any Error)
        /// What the page's feeds said: the episode whose item links to the page, or nil.
        case feedsSearched(DiscoveredMedia?)
        /// What the page's embedded podcast players named: the episode's file, or nil.
        case playersFollowed(DiscoveredMedia?)
        /// A network's API answered a post call (whatever its status).
        case postFetched(LoadedPage)
        /// No answer came from the network's API.
        case postFetchFailed(any Error)
    }

    /// What the flow asks the I/O side to do next.
    public enum Action: Sendable, Equatable {
        case loadCookies
        case loadPage(URL, cookies: [Cookie], with: LoaderKind)
        /// Parse the page, once, for the steps after it.
        case parse(LoadedPage)
        /// Read what the page is and which media it names (no fetch): the route decision's evidence.
        case readRoute(ParsedPage)
        /// Fetch the page's feeds for an item that links to it (only for a page with an episode signal).
        case searchFeeds([URL], ParsedPage)
        /// Fetch the known podcast hosts' player pages the page embeds, for the file they play.
        case followPlayers([URL], ParsedPage)
        case checkReaderable(ParsedPage)
        case extract(ParsedPage)
        case save(ExtractedArticle)
        case copy(String)
        /// A media link, with what the flow knows of it.
        case enqueueMedia(MediaLink, into: String?)
        case enqueueFile(URL, into: String?)
        /// A playlist or feed was loaded: one job per entry, one library folder.
        case enqueuePlaylist(LoadedPage, Playlist.Kind, into: String?, limit: Int?)
        /// Ask the network's API for a post (`PostSource.nextCall`), through the share's own client.
        case fetchPost(URL)
        /// Read the post from its answers (X: its page) as the article to save.
        case readPost(FetchedPost)
        case progress(String)
        case finish(ShareResult)
    }

    enum Stage: Sendable {
        case idle
        case cookies(URL)
        case loading(URL, LoaderKind, fallback: ParsedPage?)
        case parsing(LoadedPage)
        case readingRoute(ParsedPage)
        /// Asking the page's players, then its feeds; `otherwise` when neither names the episode.
        case lookingUp(ParsedPage, EpisodeLookup, otherwise: RouteDecision)
        case checking(ParsedPage)
        case extracting(ParsedPage)
        /// Calling a network's API for a post: the answers so far.
        case fetchingPost(PostSource, [LoadedPage])
        case readingPost
        case saving(ExtractedArticle)
        case copying(SaveReceipt, ExtractedArticle)
        /// Queueing the media a page named; if that fails, the page is still an article.
        case queueingFound(ParsedPage)
        case media
        case done
    }

    /// What is shared: a link or a file (nil: the input held neither).
    public let target: ShareTarget?
    /// The options of this share.
    public let options: Options
    /// The time the share started (for expiry and cookie checks).
    public let now: Date
    var stage: Stage = .idle
    private var jar = CookieJar()
    /// Media the page names in its main content without saying what it is: the episode if the
    /// page turns out too short for an article (or not readerable).
    private var pendingEpisode: MediaLink?
    /// Media the saved article's page names, said beside the result ("share with --as media").
    private var alsoFound: URL?
    /// The page's title and author (its route evidence), for the media it names.
    private var pageNames: (title: String?, author: String?) = (nil, nil)
    /// Why the browser, asked for a second opinion, failed: the reason a share ends with when
    /// the plain HTTP copy then holds no article either.
    private var browserFailure: (any Error)?

    /// A flow for the first thing `input` holds; call `start()` for its first action.
    public init(input: ShareInput, options: Options = Options(), now: Date = Date()) {
        self.init(target: input.target, options: options, now: now)
    }

    /// A flow for `target`, as a caller that has already picked it out of the input hands it
    /// over (never turned back into text); call `start()` for its first action.
    public init(target: ShareTarget?, options: Options = Options(), now: Date = Date()) {
        self.target = target
        self.options = options
        self.now = now
    }

    /// True once the flow has reached `.done`.
    public var isFinished: Bool {
        if case .done = stage { return true }
        return false
    }

    /// The first actions: pick the target and route it.
    public mutating func start() -> [Action] {
        guard case .idle = stage else { return [] }
        switch target {
        case nil:
            return finish(.failure(ShareFailure.noURL))
        case .file(let file):
            if ShareRouting.route(of: .file(file)) == .article {
                stage = .loading(file, .file, fallback: nil)
                return [.loadPage(file, cookies: [], with: .file)]
            }
            stage = .media
            return [.enqueueFile(file, into: options.mediaFolder)]
        case .link(let url):
            if ShareRouting.isImage(url) { return finish(.failure(RoutingError.image(url.absoluteString))) }
            let link = MediaLink(url)
            if link.hasMediaExtension {
                stage = .media
                return [.enqueueMedia(link, into: options.mediaFolder)]
            }
            stage = .cookies(url)
            return [.loadCookies]
        }
    }

    /// Feeds one event; returns what to do next. Events that don't fit the stage are ignored.
    public mutating func handle(_ event: Event) -> [Action] {
        switch (stage, event) {
        case (.cookies(let url), .cookiesLoaded(let loaded)):
            jar = loaded
            return afterCookies(url)
        case (.cookies(let url), .cookiesFailed(let error)):
            // A broken cookies file only matters for links that need the cookies.
            if XLinks.isXLink(url) { return finish(.failure(error)) }
            return afterCookies(url)

        case (.loading(_, _, _), .pageLoaded(let page)):
            return afterLoad(page)
        case (.loading(_, let kind, let fallback), .pageFailed(let error, _)):
            if kind == .browser, let parsed = fallback {
                // The browser was only a second opinion: extract what plain HTTP gave us.
                browserFailure = error
                stage = .extracting(parsed)
                return [.progress("The browser failed (\(error)); using the plain HTTP page"), .extract(parsed)]
            }
            return finish(.failure(error))

        case (.parsing, .parsed(let parsed)):
            if options.route != .article, parsed.page.loader != .file {
                stage = .readingRoute(parsed)
                return [.readRoute(parsed)]
            }
            return afterRoute(parsed)

        case (.readingRoute(let parsed), .routeRead(let evidence)):
            pageNames = (evidence.title, evidence.author)
            return route(parsed, RouteRules.decide(evidence, preference: options.route))

        case (.lookingUp(let parsed, let lookup, let otherwise), .playersFollowed(let found)):
            if let found {
                return queueFound(MediaLink(found.url, title: found.title, author: found.author), parsed,
                                  note: "The page's player names its episode: \(found.url.absoluteString)")
            }
            return lookUp(parsed, EpisodeLookup(feeds: lookup.feeds), otherwise: otherwise)
        case (.lookingUp(let parsed, _, let otherwise), .feedsSearched(let found)):
            if let found {
                return queueFound(MediaLink(found.url, title: found.title, author: found.author), parsed,
                                  note: "The page's feed names its episode: \(found.url.absoluteString)")
            }
            return route(parsed, otherwise)

        case (.checking(let parsed), .readerableChecked(let readerable)):
            if readerable {
                stage = .extracting(parsed)
                return [.extract(parsed)]
            }
            if let pending = pendingEpisode {
                // Not an article over plain HTTP, and it names its media in its main content.
                pendingEpisode = nil
                alsoFound = nil
                return queueFound(pending, parsed, note: "The page is not an article and names its media: \(pending.shared.absoluteString)")
            }
            return load(parsed.page.requestedURL, with: .browser, fallback: parsed,
                        note: "The page doesn't look like an article over plain HTTP; loading it in Chromium")

        case (.extracting, .extracted(let article)), (.readingPost, .extracted(let article)):
            stage = .saving(article)
            return [.save(article)]
        case (.readingPost, .extractionFailed(let error)):
            return finish(.failure(error))
        case (.fetchingPost(let source, let answers), .postFetched(let answer)):
            return fetchPost(source, answers: answers + [answer])
        case (.fetchingPost, .postFetchFailed(let error)):
            return finish(.failure(error))
        case (.extracting, .extractionFailed(let error)):
            if let pending = pendingEpisode, case .notAnArticle? = error as? ExtractionError {
                // Too short for an article: the page is the media it names.
                stage = .media
                return [.progress("The page holds no article and names its media: \(pending.shared.absoluteString)"),
                        .enqueueMedia(pending, into: options.mediaFolder)]
            }
            if let browserFailure, case .notAnArticle? = error as? ExtractionError {
                // The page needed the browser, which failed: that is the reason.
                return finish(.failure(browserFailure))
            }
            return finish(.failure(error))

        case (.queueingFound, .mediaQueued(let receipt)):
            return finish(.mediaQueued(receipt))
        case (.queueingFound(let parsed), .mediaFailed(let error)):
            // The page's media could not be queued (its link does not resolve, is not media…):
            // the page is still an article; asked for media, the share fails with the reason.
            if options.route == .media { return finish(.failure(error)) }
            pendingEpisode = nil
            alsoFound = nil
            var actions: [Action] = [.progress("Could not queue the page's media (\(error)); saving the page as an article")]
            actions += afterRoute(parsed)
            return actions

        case (.saving(let article), .saved(let url)):
            return afterSave(SaveReceipt(url: url), article)
        case (.saving(let article), .savedCopy(let receipt)):
            return afterSave(receipt, article)
        case (.saving, .saveFailed(let error)):
            return finish(.failure(error))

        case (.copying(let receipt, let article), .copied(let how)):
            return finish(.saved(url: receipt.url, title: article.title, clipboard: .copied(how), expires: receipt.expires, alsoFound: alsoFound))
        case (.copying(let receipt, let article), .copyFailed(let error)):
            return finish(.saved(url: receipt.url, title: article.title, clipboard: .failed("\(error)"), expires: receipt.expires, alsoFound: alsoFound))

        case (.media, .mediaQueued(let receipt)):
            return finish(.mediaQueued(receipt))
        case (.media, .mediaFailed(let error)):
            return finish(.failure(error))

        default:
            return []
        }
    }

    /// Where the route decision sends the page (see `RouteRules`).
    private mutating func route(_ parsed: ParsedPage, _ decision: RouteDecision) -> [Action] {
        let names = pageNames
        func link(_ candidate: MediaCandidate) -> MediaLink {
            MediaLink(candidate.url, title: names.title, author: names.author)
        }
        switch decision {
        case .episode(let candidate):
            return queueFound(link(candidate), parsed, note: "The page names its media (\(candidate.signal)): \(candidate.url.absoluteString)")
        case .lookUp(let lookup, let otherwise):
            return lookUp(parsed, lookup, otherwise: otherwise)
        case .article(let also):
            if options.route == .media { return finish(.failure(ShareFailure.noMediaOnPage(parsed.page.finalURL.absoluteString))) }
            alsoFound = also?.url
            return afterRoute(parsed)
        case .articleUnlessTooShort(let candidate):
            pendingEpisode = link(candidate)
            alsoFound = candidate.url
            return afterRoute(parsed)
        }
    }

    /// Asks the page's players, then its feeds, for the episode; `otherwise` if none names it.
    private mutating func lookUp(_ parsed: ParsedPage, _ lookup: EpisodeLookup, otherwise: RouteDecision) -> [Action] {
        stage = .lookingUp(parsed, lookup, otherwise: otherwise)
        if !lookup.players.isEmpty { return [.followPlayers(lookup.players, parsed)] }
        if !lookup.feeds.isEmpty { return [.searchFeeds(lookup.feeds, parsed)] }
        return route(parsed, otherwise)
    }

    private mutating func queueFound(_ link: MediaLink, _ parsed: ParsedPage, note: String) -> [Action] {
        stage = .queueingFound(parsed)
        return [.progress(note), .enqueueMedia(link, into: options.mediaFolder)]
    }

    private mutating func afterSave(_ receipt: SaveReceipt, _ article: ExtractedArticle) -> [Action] {
        guard options.copyToClipboard else {
            return finish(.saved(url: receipt.url, title: article.title, clipboard: .skipped, expires: receipt.expires, alsoFound: alsoFound))
        }
        stage = .copying(receipt, article)
        return [.copy(receipt.url.absoluteString)]
    }

    private mutating func afterCookies(_ url: URL) -> [Action] {
        if XLinks.isXLink(url) && !jar.isConnected(at: now) {
            return finish(.failure(ShareFailure.connectX))
        }
        if let post = options.posts.post(at: url), post.network != .x {
            return fetchPost(post, answers: [])   // read from the network's API: no page to load
        }
        let kind: LoaderKind
        switch options.browser {
        case .never: kind = .http
        case .always: kind = .browser
        case .auto: kind = options.posts.isX(url) ? .browser : .http
        }
        return load(url, with: kind, fallback: nil, note: nil)
    }

    private mutating func load(_ url: URL, with kind: LoaderKind, fallback: ParsedPage?, note: String?) -> [Action] {
        if kind == .browser && !options.browserAvailable {
            if let parsed = fallback {
                stage = .extracting(parsed)
                return [.extract(parsed)]
            }
            return finish(.failure(LoadError.browserMissing))
        }
        stage = .loading(url, kind, fallback: fallback)
        let cookies = url.host.map { jar.cookies(for: $0, at: now) } ?? []
        var actions: [Action] = note.map { [.progress($0)] } ?? []
        // A browser context gets X's cookies only for a link on X (`BrowserCookies`).
        actions.append(.loadPage(url, cookies: kind == .browser ? BrowserCookies.forLoad(of: url, from: jar, at: now) : cookies, with: kind))
        return actions
    }

    private mutating func afterLoad(_ page: LoadedPage) -> [Action] {
        if let kind = Playlist.kind(of: page.finalURL, contentType: page.contentType) {
            stage = .media
            return [.enqueuePlaylist(page, kind, into: options.mediaFolder, limit: kind == .feed ? options.feedLimit : nil)]
        }
        // An extension-less link can still be media: the response's Content-Type decides, and
        // the queue takes that answer rather than asking the server again.
        if MediaLinks.isMediaContentType(page.contentType) {
            stage = .media
            return [.enqueueMedia(MediaLink(page.requestedURL, contentType: page.contentType), into: options.mediaFolder)]
        }
        if ShareRouting.isImageContentType(page.contentType) {
            return finish(.failure(RoutingError.image(page.requestedURL.absoluteString)))
        }
        if page.loader != .file, let post = options.posts.post(in: page) { return readPost(post, page: page) }
        stage = .parsing(page)
        return [.parse(page)]
    }

    /// A page taken as an article (for now: `pendingEpisode` may still claim it): the readerable
    /// check where a browser could do better, then the extraction.
    private mutating func afterRoute(_ parsed: ParsedPage) -> [Action] {
        if parsed.page.loader == .http && options.browser == .auto && options.browserAvailable {
            stage = .checking(parsed)
            return [.checkReaderable(parsed)]
        }
        stage = .extracting(parsed)
        return [.extract(parsed)]
    }

    mutating func finish(_ result: ShareResult) -> [Action] {
        stage = .done
        return [.finish(result)]
    }
}
