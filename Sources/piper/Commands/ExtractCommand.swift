import Foundation
import HTML
import PiperCore
import PiperSystem
import Readability
import Extraction
import PiperNet
import Posts

/// `piper extract [--json | --html | --text] [--mode piper|readability] [--keep-classes LIST] [--base-url URL]
/// [--encoding LABEL] [--meta] [--browser MODE] [--tuning FILE] (PATH | URL | -)`: extracts the article of a saved page and prints it.
struct ExtractCommand: Command {
    static let name = "extract"
    static let abstract = "Extract the readable article from a saved HTML page."
    static let discussion: String? = """
        Reads the page from PATH, or from standard input with '-', and extracts its article.
        --mode piper (the default) starts from Readability's candidate and removes boilerplate,
        with block-aware text that leaves captions out; --mode readability is Mozilla
        Readability.js exactly. --keep-classes keeps those class names in the HTML.
        --text (the default) prints the title and the body text; --html prints the article's
        HTML; --json prints title, byline, dir, lang, content, textContent, length, excerpt,
        siteName, publishedTime and readerable (absent values are null). Relative links are made
        absolute against --base-url (and the page's <base>). Exits 65 when the page holds no
        article; in piper mode also when it holds fewer than 140 characters of article text (the
        limit piper share applies), while readability mode prints the short article Readability.js
        returns, with a note on standard error.
        An http(s) URL is loaded as piper share loads it (X cookies, --browser). The page's
        encoding comes from its byte order mark, then --encoding (or the HTTP charset), then a
        <meta charset>, then detection from the bytes (UTF-8 first), else windows-1252; --meta prints {"encoding", "encodingSource"} as JSON to standard error.
        --tuning is for developing the piper mode only (no setting of shares): a JSON object of
        its thresholds by field name (Sources/Extraction/Rules/Tuning.swift) to run with instead of
        the built-in values; an unknown field is an error.
        """
    struct Options: OptionGroup {
        var json = Opt.flag("--json", help: "Print the article as one JSON object.")
        var html = Opt.flag("--html", help: "Print the article's HTML.")
        var text = Opt.flag("--text", help: "Print the title and body text (the default).")
        var mode = Opt.choice("--mode", help: "piper: Readability's article, boilerplate removed, block-aware text; readability: Readability.js exactly.",
                              default: ExtractionMode.piper)
        var keepClasses = Opt.text("--keep-classes", placeholder: "LIST", help: "Comma-separated class names the HTML keeps (classesToPreserve).")
        var baseURL = Opt.text("--base-url", placeholder: "URL", help: "Resolve relative links against this page URL.")
        var encoding = Opt.text("--encoding", placeholder: "LABEL", help: "The page's character encoding (e.g. utf-8); wins over all but a BOM.")
        var meta = Opt.flag("--meta", help: "Print the page's encoding and how it was decided as JSON to stderr.")
        var browser = Opt.choice("--browser", placeholder: "MODE",
                                 help: "A URL: auto: Chromium for X/Twitter or pages that need it; always; never.",
                                 default: ShareFlow.Options().browser)
        var tuning = Opt.text("--tuning", placeholder: "FILE",
                              help: "Development only: a JSON file of piper-mode threshold overrides by field name.")
    }
    static let arguments: [ArgumentSpec] = [
        ArgumentSpec(name: "PATH", help: "A saved HTML file, an http(s) URL to load, or - for standard input."),
    ]

    enum Format { case json, html, text }

    let format: Format
    let baseURL: String?
    let encoding: String?
    let printMeta: Bool
    let mode: ExtractionMode
    let keepClasses: [String]
    let browser: BrowserMode
    /// The piper mode's thresholds (`--tuning` overrides, else the standard ones).
    let tuning: Tuning
    let path: String
    /// Set when PATH is an http(s) URL: the page is loaded through the share loaders.
    let url: URL?

    init(_ parsed: Parsed<Options>) throws {
        switch try parsed.exclusive(\.json, \.html, \.text) {
        case 0: format = .json
        case 1: format = .html
        default: format = .text
        }
        path = parsed.positionals[0]
        let lowered = path.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            guard let url = URL(string: path), url.host != nil else { throw UsageError("'\(path)' is not a valid URL") }
            self.url = url
        } else {
            url = nil
        }
        if let base = parsed.baseURL {
            let b = base.lowercased()
            guard b.hasPrefix("http://") || b.hasPrefix("https://") || b.hasPrefix("file:") else {
                throw UsageError("--base-url takes an absolute http(s) or file URL, not '\(base)'")
            }
        }
        baseURL = parsed.baseURL
        encoding = parsed.encoding
        if let label = encoding, InputDecoder.encoding(forLabel: label) == nil {
            throw UsageError("--encoding takes an encoding label such as 'utf-8' or 'shift_jis', not '\(label)'")
        }
        printMeta = parsed.meta
        browser = parsed.browser
        mode = parsed.mode
        tuning = try Self.tuning(parsed.tuning)
        keepClasses = (parsed.keepClasses ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
    }

    func run() async throws -> ExitCode {
        MemoryPolicy.mapLargeBlocksFromTheSystem()   // one page in, one answer out: a lower peak
        let bytes: [UInt8]
        var charset: String?
        var pageURL = baseURL
        if let url {
            let page: LoadedPage
            switch try Self.load(url, browser: browser) {
            case .post(let post):
                return try output(Self.article(post), readerable: true)
            case .page(let loaded):
                page = loaded
            }
            bytes = [UInt8](page.body)
            charset = page.charset
            pageURL = pageURL ?? page.finalURL.absoluteString
        } else {
            bytes = try readInput()
        }
        if let encoding { charset = encoding }
        // The article pipeline piper share runs; isProbablyReaderable looks at the page before
        // extraction changes it.
        // Readability mode returns what Readability.js returns: the minimum belongs to shares,
        // and a short article only gets a note.
        let exact = mode == .readability
        let pipeline = ArticlePipeline(mode: mode, options: ReadabilityOptions(classesToPreserve: keepClasses),
                                       minimumTextLength: exact ? 0 : ArticlePipeline.defaultMinimumTextLength, tuning: tuning)
        let readerable = ArticlePipeline.isReaderable(bytes, transportEncoding: charset, url: pageURL)
        // An X page is read as a post, never as an article. Its answer copies the bytes now, so
        // the input is not used after the parse and is freed before the extraction (on a 5 MB
        // page, 5 MB less at the peak).
        let xPost = pageURL.flatMap(URL.init(string:)).flatMap { url in
            PostLinks.from().post(at: url).flatMap { $0.network == .x ? FetchedPost(source: $0, answers: [LoadedPage(requestedURL: url, body: Data(bytes))]) : nil }
        }
        let document = ArticlePipeline.parse(bytes, transportEncoding: charset, url: pageURL)
        if printMeta, let encoding = document.encoding {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]   // a stable order: encoding, encodingSource
            Output.err(String(decoding: try encoder.encode(EncodingReport(encoding)), as: UTF8.self))
        }
        let article: Article
        if let xPost {
            article = Self.article(try PostReader.article(xPost))
        } else {
            do {
                article = try pipeline.extract(from: document, url: pageURL)
            } catch {
                throw NotAnArticle(source: path == "-" ? "standard input" : path, reason: error.description)
            }
        }
        if exact, let short = ArticlePipeline.shortfall(of: article) {
            Output.note("Note: \(short); piper share would refuse this page")
        }
        return try output(article, readerable: readerable)
    }

    /// Prints the article in the chosen format.
    private func output(_ article: Article, readerable: Bool) throws -> ExitCode {
        switch format {
        case .json:
            let encoder = JSONEncoder()
            // Sorted keys: the same page prints the same bytes on every run, so outputs diff.
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            Output.out(String(decoding: try encoder.encode(ExtractReport(article, readerable: readerable)), as: UTF8.self))
        case .html:
            Output.out(article.content)
        case .text:
            Output.out(ExtractCommand.terminalText(article), terminator: "")
        }
        return .success
    }

    /// A post as `extract`'s article: the fields the share saves, and the text of its HTML.
    static func article(_ post: ExtractedArticle) -> Article {
        let text = Document.parseFragment(post.content, context: "div").1.textContent
        return Article(title: post.title, byline: post.byline, dir: post.dir, lang: post.lang, content: post.content,
                       textContent: text, length: text.count, excerpt: post.excerpt, siteName: post.siteName,
                       publishedTime: post.publishedTime)
    }

    private func readInput() throws -> [UInt8] {
        guard let bytes = path == "-" ? InputBytes.standardInput() : InputBytes.file(path) else {
            throw UnreadableInput(path: path)
        }
        return bytes
    }

    /// Title, byline and the body text with blank-line-separated paragraphs.
    static func terminalText(_ article: Article) -> String {
        var out = ""
        if let title = article.title, !title.isEmpty {
            out += title + "\n" + String(repeating: "=", count: min(title.count, 78)) + "\n"
        }
        if let byline = article.byline, !byline.isEmpty { out += byline + "\n" }
        if !out.isEmpty { out += "\n" }
        var blank = true
        for line in article.textContent.split(separator: "\n", omittingEmptySubsequences: false) {
            let text = line.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            if text.isEmpty {
                if !blank { out += "\n"; blank = true }
            } else {
                out += text + "\n"
                blank = false
            }
        }
        return out
    }
}

/// The `--json` shape: exactly Readability's fields plus `readerable`, nulls included.
struct ExtractReport: Encodable {
    let article: Article
    let readerable: Bool

    init(_ article: Article, readerable: Bool) {
        self.article = article
        self.readerable = readerable
    }

    enum CodingKeys: String, CodingKey {
        case title, byline, dir, lang, content, textContent, length, excerpt, siteName, publishedTime, readerable
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(article.title, forKey: .title)
        try c.encode(article.byline, forKey: .byline)
        try c.encode(article.dir, forKey: .dir)
        try c.encode(article.lang, forKey: .lang)
        try c.encode(article.content, forKey: .content)
        try c.encode(article.textContent, forKey: .textContent)
        try c.encode(article.length, forKey: .length)
        try c.encode(article.excerpt, forKey: .excerpt)
        try c.encode(article.siteName, forKey: .siteName)
        try c.encode(article.publishedTime, forKey: .publishedTime)
        try c.encode(readerable, forKey: .readerable)
    }
}

/// The `--meta` object on stderr: the page's encoding and how it was decided.
struct EncodingReport: Encodable {
    let encoding: String
    let encodingSource: String

    init(_ encoding: DocumentEncoding) {
        self.encoding = encoding.name
        encodingSource = encoding.source.rawValue
    }
}

/// The page has no article: exit 65 with a one-line reason.
struct NotAnArticle: PiperError {
    let source: String
    var reason = ArticleRejection.noContent.description
    var description: String { "No article found in \(source): \(reason)" }
    var category: ErrorCategory { .badData }
}

/// The input file could not be read: exit 65.
struct UnreadableInput: PiperError {
    let path: String
    var description: String { "Cannot read '\(path)': no such file, or not readable" }
    var category: ErrorCategory { .badData }
}
