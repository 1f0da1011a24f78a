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
        case mediaSearched(DiscoveredMedia?)
    }

    /// What the flow asks the I/O side to do next.
    public enum Action: Sendable, Equatable {
        case loadCookies
        case loadPage(URL, cookies: [Cookie], with: LoaderKind)
        case checkReaderable(LoadedPage)
        /// Look for the media an HTML page names (an episode page) before taking it as an article.
        case findMedia(LoadedPage)
        case extract(LoadedPage)
        case save(ExtractedArticle)
        case copy(String)
        case enqueueMedia(URL, into: String?)
        /// Media a page named, with the page's title and author.
        case enqueueFound(DiscoveredMedia, into: String?)
        case enqueueFile(URL, into: String?)
        /// A playlist or feed was loaded: one job per entry, one library folder.
        case enqueuePlaylist(LoadedPage, Playlist.Kind, into: String?, limit: Int?)
        case progress(String)
        case finish(ShareResult)
    }

    enum Stage: Sendable {
        case idle
        case cookies(URL)
        case loading(URL, LoaderKind, fallback: LoadedPage?)
        case checking(LoadedPage)
        case searching(LoadedPage)
        case extracting(LoadedPage)
        case saving(ExtractedArticle)
        case copying(SaveReceipt, ExtractedArticle)
        case media
        case done
    }

    /// What was shared.
    public let input: ShareInput
    /// The options of this share.
    public let options: Options
    /// The time the share started (for expiry and cookie checks).
    public let now: Date
    private(set) var stage: Stage = .idle
    private var jar = CookieJar()

    /// A flow at its start; call `start()` for its first action.
    public init(input: ShareInput, options: Options = Options(), now: Date = Date()) {
        self.input = input
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
        switch input.target {
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
            if MediaLinks.hasMediaExtension(url) {
                stage = .media
                return [.enqueueMedia(MediaLinks.directDownloadURL(for: url), into: options.mediaFolder)]
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
            if kind == .browser, let page = fallback {
                // The browser was only a second opinion: extract what plain HTTP gave us.
                stage = .extracting(page)
                return [.progress("The browser failed (\(error)); using the plain HTTP page"), .extract(page)]
            }
            return finish(.failure(error))

        case (.searching(let page), .mediaSearched(let found)):
            if let found {
                stage = .media
                return [.progress("The page names its media (\(found.signal)): \(found.url.absoluteString)"),
                        .enqueueFound(found, into: options.mediaFolder)]
            }
            if options.route == .media { return finish(.failure(ShareFailure.noMediaOnPage(page.finalURL.absoluteString))) }
            return afterSearch(page)

        case (.checking(let page), .readerableChecked(let readerable)):
            if readerable {
                stage = .extracting(page)
                return [.extract(page)]
            }
            return load(page.requestedURL, with: .browser, fallback: page,
                        note: "The page doesn't look like an article over plain HTTP; loading it in Chromium")

        case (.extracting, .extracted(let article)):
            stage = .saving(article)
            return [.save(article)]
        case (.extracting, .extractionFailed(let error)):
            return finish(.failure(error))

        case (.saving(let article), .saved(let url)):
            return afterSave(SaveReceipt(url: url), article)
        case (.saving(let article), .savedCopy(let receipt)):
            return afterSave(receipt, article)
        case (.saving, .saveFailed(let error)):
            return finish(.failure(error))

        case (.copying(let receipt, let article), .copied(let how)):
            return finish(.saved(url: receipt.url, title: article.title, clipboard: .copied(how), expires: receipt.expires))
        case (.copying(let receipt, let article), .copyFailed(let error)):
            return finish(.saved(url: receipt.url, title: article.title, clipboard: .failed("\(error)"), expires: receipt.expires))

        case (.media, .mediaQueued(let receipt)):
            return finish(.mediaQueued(receipt))
        case (.media, .mediaFailed(let error)):
            return finish(.failure(error))

        default:
            return []
        }
    }

    private mutating func afterSave(_ receipt: SaveReceipt, _ article: ExtractedArticle) -> [Action] {
        guard options.copyToClipboard else {
            return finish(.saved(url: receipt.url, title: article.title, clipboard: .skipped, expires: receipt.expires))
        }
        stage = .copying(receipt, article)
        return [.copy(receipt.url.absoluteString)]
    }

    private mutating func afterCookies(_ url: URL) -> [Action] {
        if XLinks.isXLink(url) && !jar.isConnected(at: now) {
            return finish(.failure(ShareFailure.connectX))
        }
        let kind: LoaderKind
        switch options.browser {
        case .never: kind = .http
        case .always: kind = .browser
        case .auto: kind = XLinks.isXLink(url) ? .browser : .http
        }
        return load(url, with: kind, fallback: nil, note: nil)
    }

    private mutating func load(_ url: URL, with kind: LoaderKind, fallback: LoadedPage?, note: String?) -> [Action] {
        if kind == .browser && !options.browserAvailable {
            if let page = fallback {
                stage = .extracting(page)
                return [.extract(page)]
            }
            return finish(.failure(LoadError.browserMissing))
        }
        stage = .loading(url, kind, fallback: fallback)
        let cookies = url.host.map { jar.cookies(for: $0, at: now) } ?? []
        var actions: [Action] = note.map { [.progress($0)] } ?? []
        actions.append(.loadPage(url, cookies: kind == .browser ? jar.live(at: now) : cookies, with: kind))
        return actions
    }

    private mutating func afterLoad(_ page: LoadedPage) -> [Action] {
        if let kind = Playlist.kind(of: page.finalURL, contentType: page.contentType) {
            stage = .media
            return [.enqueuePlaylist(page, kind, into: options.mediaFolder, limit: kind == .feed ? options.feedLimit : nil)]
        }
        // An extension-less link can still be media: the response's Content-Type decides.
        if MediaLinks.isMediaContentType(page.contentType) {
            stage = .media
            return [.enqueueMedia(page.requestedURL, into: options.mediaFolder)]
        }
        if ShareRouting.isImageContentType(page.contentType) {
            return finish(.failure(RoutingError.image(page.requestedURL.absoluteString)))
        }
        if options.route != .article, page.loader != .file {
            stage = .searching(page)
            return [.findMedia(page)]
        }
        return afterSearch(page)
    }

    /// A page that names no media (or was asked to be an article): readerable check, then extract.
    private mutating func afterSearch(_ page: LoadedPage) -> [Action] {
        if page.loader == .http && options.browser == .auto && options.browserAvailable {
            stage = .checking(page)
            return [.checkReaderable(page)]
        }
        stage = .extracting(page)
        return [.extract(page)]
    }

    private mutating func finish(_ result: ShareResult) -> [Action] {
        stage = .done
        return [.finish(result)]
    }
}
