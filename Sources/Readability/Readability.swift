// Readability: Mozilla Readability.js (0.6.0) behaviour on the HTML module's DOM.
// One phase per file, with Readability.js's function names:
//   Readability+Metadata / +JSONLD / +Title   metadata
//   Readability+Prep                           prepDocument, replaceBrs, unwrapNoscriptImages
//   Readability+Grab / +Score                  grabArticle and its scoring
//   Readability+PrepArticle / +CleanConditionally
//   Readability+PostProcess                    fixRelativeUris, simplifyNestedElements, cleanClasses
import Foundation
import HTML

/// Readability.js's options, with the same defaults.
public struct ReadabilityOptions: Sendable {
    /// Documents with more elements than this make `parse()` throw. 0 = no limit.
    public var maxElemsToParse: Int = 0
    /// How many top candidates to weigh against each other.
    public var nbTopCandidates: Int = 5
    /// Characters an article needs before the flag-dropping retries stop.
    public var charThreshold: Int = 500
    /// Classes kept by the class cleanup (besides "page").
    public var classesToPreserve: [String] = []
    /// Keep every class attribute.
    public var keepClasses: Bool = false
    /// Skip JSON-LD metadata.
    public var disableJSONLD: Bool = false
    /// Which embed/iframe/object attribute values count as allowed video (`allowedVideoRegex`).
    public var allowedVideoRegex: @Sendable (String) -> Bool = Matching.isAllowedVideo
    /// Added to the link-density thresholds of conditional cleaning.
    public var linkDensityModifier: Double = 0
    /// Turns the article container into `content` (default: its innerHTML).
    public var serializer: (@Sendable (Node) -> String)? = nil
    /// How many of the passes over the page run before the longest attempt is taken, when
    /// each finds under `charThreshold` characters: Readability.js runs all four (the last
    /// three each drop one more flag). Piper's own mode stops after three on a page with
    /// containers of its own: there the fourth (no conditional cleaning) finds nothing they do
    /// not. Not an option of Readability.js.
    public var passes: Int = 4

    /// Options with Readability.js's defaults.
    public init(
        maxElemsToParse: Int = 0, nbTopCandidates: Int = 5, charThreshold: Int = 500,
        classesToPreserve: [String] = [], keepClasses: Bool = false, disableJSONLD: Bool = false,
        allowedVideoRegex: (@Sendable (String) -> Bool)? = nil, linkDensityModifier: Double = 0,
        serializer: (@Sendable (Node) -> String)? = nil
    ) {
        // Readability.js treats 0 as "use the default" (`options.x || DEFAULT`).
        self.maxElemsToParse = maxElemsToParse
        self.nbTopCandidates = nbTopCandidates > 0 ? nbTopCandidates : 5
        self.charThreshold = charThreshold > 0 ? charThreshold : 500
        self.classesToPreserve = classesToPreserve
        self.keepClasses = keepClasses
        self.disableJSONLD = disableJSONLD
        if let allowedVideoRegex { self.allowedVideoRegex = allowedVideoRegex }
        self.linkDensityModifier = linkDensityModifier
        self.serializer = serializer
    }
}

/// What `parse()` returns (Readability.js's result object).
public struct Article: Sendable, Equatable {
    /// The article's title (from the page's metadata or headings), or nil.
    public var title: String?
    /// The author line, or nil.
    public var byline: String?
    /// The text direction (`dir`) of the article's content, or nil.
    public var dir: String?
    /// The document's language (`lang` of the root element), or nil.
    public var lang: String?
    /// The article's HTML (the serialized content container).
    public var content: String
    /// The article's text, as the DOM's `textContent` of the content.
    public var textContent: String
    /// The length of `textContent` in UTF-16 code units, as JavaScript counts it.
    public var length: Int
    /// A short excerpt: the page's description, else the first paragraph.
    public var excerpt: String?
    /// The site's name from its metadata, or nil.
    public var siteName: String?
    /// The publication time from its metadata, as the page wrote it, or nil.
    public var publishedTime: String?

    /// An article with every field given (nil where absent).
    public init(title: String?, byline: String?, dir: String?, lang: String?, content: String,
                textContent: String, length: Int, excerpt: String?, siteName: String?, publishedTime: String?) {
        self.title = title
        self.byline = byline
        self.dir = dir
        self.lang = lang
        self.content = content
        self.textContent = textContent
        self.length = length
        self.excerpt = excerpt
        self.siteName = siteName
        self.publishedTime = publishedTime
    }
}

/// Why Readability refused a document.
public enum ReadabilityError: Error, CustomStringConvertible, Equatable {
    case tooManyElements(Int)
    case tooDeep(Int)
    case alreadyParsed

    /// The sentence a user sees.
    public var description: String {
        switch self {
        case .tooManyElements(let n): return "Aborting parsing document; \(n) elements found"
        case .tooDeep(let n): return "Aborting parsing document; elements nested \(n) deep (the limit is \(Readability.maxNestingDepth))"
        case .alreadyParsed: return "This Readability instance has already parsed its document"
        }
    }
}

/// One extraction run over one document. Like Readability.js it mutates the document it is
/// given; make a new instance per document. Not Sendable: the DOM is single-threaded.
public final class Readability {
    struct Flags: OptionSet {
        let rawValue: UInt8
        static let stripUnlikelys = Flags(rawValue: 1)
        static let weightClasses = Flags(rawValue: 2)
        static let cleanConditionally = Flags(rawValue: 4)
    }

    let doc: Document
    let options: ReadabilityOptions
    let classesToPreserve: Set<String>
    /// The document URL (`documentURI`); nil leaves relative URLs alone.
    let documentURI: String?
    var flags: Flags = [.stripUnlikelys, .weightClasses, .cleanConditionally]
    /// `node.readability.contentScore`, keyed by node index, fresh per run.
    var scores = NodeTable<Double>()
    /// `table._readabilityDataTable`.
    var dataTables = NodeTable<Bool>()
    var articleTitle: String = ""
    /// The title's words, for `titleSimilarity`.
    var titleWords: (title: String, words: Set<String>?)?
    var articleByline: String?
    var articleDir: String?
    var articleLang: String?
    var metadata = Metadata()
    var attempts: [(content: Node, textLength: Int)] = []
    /// Each text node's measurements, taken once (`TextPieces`).
    let textPieces = TextPieces()
    /// Memoised inner-text lengths, only while a phase that doesn't reshape the tree runs.
    var textLengthCache: NodeTable<Int>?
    private var used = false

    /// A run of the algorithm on `document` (which it changes: pass a document you no longer
    /// need, or a clone); `url` resolves relative links. Call `parse()` once.
    public init(_ document: Document, url: String? = nil, options: ReadabilityOptions = .init()) {
        self.doc = document
        self.options = options
        self.classesToPreserve = Set(["page"] + options.classesToPreserve)
        self.documentURI = url
    }

    /// Convenience: parse `document` once with `options`.
    public static func parse(_ document: Document, url: String? = nil, options: ReadabilityOptions = .init()) throws -> Article? {
        try Readability(document, url: url, options: options).parse()
    }

    /// Runs Readability: returns nil when no article could be found.
    public func parse() throws -> Article? {
        try parseWithContent()?.article
    }

    /// Runs Readability like `parse()` and also returns the article container (the node
    /// `content` serializes), still attached to the document, for later stages to refine.
    /// With `text: false` the article's `textContent` is left empty and its `length` 0: a
    /// stage that makes its own text of the container skips a walk over it.
    public func parseWithContent(text: Bool = true) throws -> (article: Article, content: Node)? {
        if used { throw ReadabilityError.alreadyParsed }
        used = true
        let (numTags, depth) = elementCountAndDepth()
        if options.maxElemsToParse > 0 && numTags > options.maxElemsToParse {
            throw ReadabilityError.tooManyElements(numTags)
        }
        // Readability's walks are quadratic (or worse) in nesting depth; browsers' parsers stop
        // nesting at 512 too. Deeper documents are refused rather than left to hang.
        if depth > Readability.maxNestingDepth { throw ReadabilityError.tooDeep(depth) }
        unwrapNoscriptImages()
        // One walk finds the scripts (JSON-LD is read before they go), noscripts and comments.
        let scripted = scriptsAndComments()
        let jsonLd = options.disableJSONLD ? Metadata() : getJSONLD(scripted.scripts)
        removeScripts(scripted)
        prepDocument()
        metadata = getArticleMetadata(jsonLd)
        articleTitle = metadata.title ?? ""

        guard let articleContent = grabArticle() else { return nil }
        postProcessContent(articleContent)

        if metadata.excerpt.isNilOrEmpty {
            if let p = elements(articleContent, "p").first {
                metadata.excerpt = JSString.trim(p.textContent)
            }
        }
        let textContent = text ? articleContent.textContent : ""
        let content = options.serializer?(articleContent) ?? articleContent.innerHTML
        let article = Article(
            title: articleTitle,
            byline: metadata.byline.nonEmpty ?? articleByline,
            dir: articleDir,
            lang: articleLang,
            content: content,
            textContent: textContent,
            length: JSString.length(textContent),
            excerpt: metadata.excerpt,
            siteName: metadata.siteName.nonEmpty,
            publishedTime: metadata.publishedTime)
        return (article, articleContent)
    }

    /// Deepest element nesting `parse()` accepts.
    public static let maxNestingDepth = 512

    /// Number of elements and the deepest element nesting, in one iterative walk.
    func elementCountAndDepth() -> (count: Int, depth: Int) {
        // By index: a handle per visited node would cost a reference count each.
        var count = 0, depth = 0, maxDepth = 0
        var i = doc.firstChild(at: 0)
        while i >= 0 {
            if doc.kind(at: i) == .element { count += 1 }
            let child = doc.firstChild(at: i)
            if child >= 0 {
                depth += 1
                maxDepth = max(maxDepth, depth)
                i = child
                continue
            }
            var current = i
            i = -1
            while current >= 0 {
                let next = doc.nextSibling(at: current)
                if next >= 0 { i = next; break }
                current = doc.parent(at: current)
                depth -= 1
                if current == 0 { current = -1 }
            }
        }
        return (count, maxDepth)
    }

    func flagIsActive(_ f: Flags) -> Bool { flags.contains(f) }
    func removeFlag(_ f: Flags) { flags.remove(f) }
}

/// Metadata gathered from JSON-LD and `<meta>` tags.
struct Metadata {
    var title: String?
    var byline: String?
    var excerpt: String?
    var siteName: String?
    var publishedTime: String?
}

extension Optional where Wrapped == String {
    /// JavaScript truthiness for strings: nil and "" are both falsy.
    var isNilOrEmpty: Bool { self?.isEmpty ?? true }
    var nonEmpty: String? { isNilOrEmpty ? nil : self }
}
