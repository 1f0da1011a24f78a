import Foundation
@testable import PiperCore

// In-memory fakes for the share flow's ports (the core's own ports only).

/// Records calls across fakes. `@unchecked Sendable`: every access goes through `lock`.
final class CallLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []
    func add(_ entry: String) { lock.lock(); entries.append(entry); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return entries }
}

struct FakeCookieStore: CookieStore {
    var jar: Result<CookieJar, CookieFileError> = .success(CookieJar())
    func load() throws -> CookieJar { try jar.get() }
    func save(_ jar: CookieJar) throws {}
    func remove() throws -> Bool { false }
}

struct FakeLoader: PageLoader {
    let kind: LoaderKind
    var html: String = ""
    var contentType: String? = "text/html; charset=utf-8"
    var error: LoadError?
    /// API answers by URL: status, body and the URL a redirect ended at (none: 404).
    var answers: [String: (status: Int, body: String, final: String?)] = [:]
    let log: CallLog
    func load(_ url: URL, cookies: [Cookie]) throws -> LoadedPage {
        log.add("load \(kind.rawValue) \(url.absoluteString) cookies=\(cookies.map(\.name).sorted().joined(separator: ","))")
        if let error { throw error }
        return LoadedPage(requestedURL: url, contentType: contentType, body: Data(html.utf8), loader: kind)
    }
    func loadAnswer(_ url: URL) throws -> LoadedPage {
        log.add("answer \(url.absoluteString)")
        if let error { throw error }
        let answer = answers[url.absoluteString] ?? (404, #"{"error":"Record not found"}"#, nil)
        return LoadedPage(requestedURL: url, finalURL: answer.final.flatMap(URL.init(string:)), statusCode: answer.status,
                          contentType: "application/json", body: Data(answer.body.utf8), loader: kind)
    }
}

/// Treats any body containing "<article>" as an article; the title is the text after "TITLE:".
struct FakeExtractor: ContentExtractor {
    var readerable = true
    var engineError: String?
    let log: CallLog
    func parse(_ page: LoadedPage) -> ParsedPage {
        log.add("parse \(page.loader.rawValue)")
        return ParsedPage(page: page, tree: nil)
    }
    func extract(_ page: LoadedPage) throws -> ExtractedArticle {
        log.add("extract \(page.loader.rawValue)")
        if let engineError { throw ExtractionError.engineFailed(page.finalURL, engineError) }
        let text = String(decoding: page.body, as: UTF8.self)
        guard text.contains("<article>") else { throw ExtractionError.notAnArticle(page.finalURL) }
        let title = text.components(separatedBy: "TITLE:").dropFirst().first?.components(separatedBy: "\n").first ?? ""
        return ExtractedArticle(title: title, content: text).withTitleFallback(for: page.finalURL)
    }
    func isReaderable(_ page: LoadedPage) -> Bool {
        log.add("readerable? \(page.loader.rawValue)")
        return readerable
    }
    /// A post: its network and its answers' statuses.
    func readPost(_ post: FetchedPost) throws -> ExtractedArticle {
        log.add("post \(post.source.network.rawValue) \(post.answers.map { String($0.statusCode) }.joined(separator: ","))")
        return ExtractedArticle(title: "A post on \(post.source.network.rawValue)", content: "<p>The post</p>")
    }
}

struct FakeSaver: SaveClient {
    var result: Result<URL, SaveError> = .success(URL(string: "http://127.0.0.1:9/3f1c2a9e-0000-4000-8000-000000000001")!)
    let log: CallLog
    func save(_ article: ExtractedArticle) throws -> URL {
        log.add("save \(article.title)")
        return try result.get()
    }
}

struct FakeClipboard: Clipboard {
    var fails = false
    let log: CallLog
    func copy(_ text: String) throws -> String {
        log.add("copy \(text)")
        if fails { throw ClipboardError("No clipboard available") }
        return "fake"
    }
}

struct FakeMedia: MediaQueue {
    let log: CallLog
    /// Links this queue refuses (as a real queue refuses a link that is not media).
    var refuses: Set<String> = []
    func enqueue(_ link: MediaLink, into folder: String?) throws -> MediaReceipt {
        log.add("media \(link.direct.absoluteString) into=\(folder ?? "-") type=\(link.contentType ?? "-") title=\(link.title ?? "-")")
        if refuses.contains(link.direct.absoluteString) { throw EnqueueFailure(link: link.direct.absoluteString) }
        return MediaReceipt(id: "1", url: link.shared.absoluteString, message: "Queued for download")
    }
    func enqueue(url: URL, into folder: String?) throws -> MediaReceipt {
        log.add("media \(url.absoluteString) into=\(folder ?? "-")")
        return MediaReceipt(id: "1", url: url.absoluteString, message: "Queued for download")
    }
    func enqueue(file: URL, into folder: String?) throws -> MediaReceipt {
        log.add("file \(file.path)")
        return MediaReceipt(id: "2", url: file.absoluteString, message: "Queued for import")
    }
}

struct EnqueueFailure: Error, CustomStringConvertible {
    let link: String
    var description: String { "Cannot check \(link): Could not resolve host" }
}

/// Answers the route evidence it is given; logs each read and feed search.
struct FakeFinder: MediaFinder {
    var evidence = RouteEvidence()
    var feedAnswer: DiscoveredMedia?
    let log: CallLog
    func evidence(in page: ParsedPage) -> RouteEvidence {
        log.add("route \(page.page.loader.rawValue)")
        return evidence
    }
    func searchFeeds(_ feeds: [URL], for page: ParsedPage) -> DiscoveredMedia? {
        log.add("feeds \(feeds.map(\.absoluteString).joined(separator: ","))")
        return feedAnswer
    }
    var playerAnswer: DiscoveredMedia?
    func followPlayers(_ players: [URL], for page: ParsedPage) -> DiscoveredMedia? {
        log.add("players \(players.map(\.absoluteString).joined(separator: ","))")
        return playerAnswer
    }
}

struct FakeReporter: ShareReporter {
    let log: CallLog
    func progress(_ message: String) { log.add("progress \(message)") }
}

let articleHTML = "<html><body><article>TITLE:A fine article\nLots of words.</article></body></html>"

/// A driver wired with fakes; tweak a port before running.
struct FakeWorld {
    let log = CallLog()
    var cookies = FakeCookieStore()
    var http: FakeLoader
    var browser: FakeLoader?
    var extractor: FakeExtractor
    var saver: FakeSaver
    var clipboard: FakeClipboard
    var media: FakeMedia?
    var finder: FakeFinder?

    init() {
        http = FakeLoader(kind: .http, html: articleHTML, log: log)
        browser = FakeLoader(kind: .browser, html: articleHTML, log: log)
        extractor = FakeExtractor(log: log)
        saver = FakeSaver(log: log)
        clipboard = FakeClipboard(log: log)
        media = FakeMedia(log: log)
    }

    func run(_ items: [String], _ options: ShareFlow.Options = .init()) -> ShareResult {
        let ports = SharePorts(cookies: cookies, httpLoader: http, browserLoader: browser, extractor: extractor,
                               saver: saver, clipboard: clipboard, media: media, reporter: FakeReporter(log: log),
                               mediaFinder: finder)
        return ShareDriver(ports: ports).run(ShareInput(items), options: options)
    }

    /// `ShareDriver.articlePage`: what `piper extract URL` would extract.
    func articleSource(_ link: String, _ options: ShareFlow.Options = .init()) throws -> ArticleSource {
        let ports = SharePorts(cookies: cookies, httpLoader: http, browserLoader: browser, extractor: extractor,
                               saver: saver, clipboard: clipboard, media: media, reporter: FakeReporter(log: log))
        return try ShareDriver(ports: ports).articlePage(for: URL(string: link)!, options: options)
    }

    /// The page `piper extract URL` would extract an article from (a post fails the test).
    func articlePage(_ link: String, _ options: ShareFlow.Options = .init()) throws -> LoadedPage {
        guard case .page(let page) = try articleSource(link, options) else { throw ShareFailure.notAPage("a post") }
        return page
    }

    /// The port calls, without progress lines.
    var calls: [String] { log.all.filter { !$0.hasPrefix("progress") } }
}

func xJar(expired: Bool = false) -> CookieJar {
    let when = Date().addingTimeInterval(expired ? -3600 : 86400 * 30)
    return CookieJar([Cookie(domain: ".x.com", httpOnly: true, expires: when, name: "auth_token", value: "secret")])
}
