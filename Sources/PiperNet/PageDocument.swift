import Extraction
import Foundation
import HTML
import PiperCore
import Readability

/// One parse of a loaded page for the steps of a share that read it: the media search reads
/// the document (`PageMediaFinder`), then the extraction takes it (`ReadabilityExtractor`),
/// which changes it as Readability does. Both parse with the article pipeline's options, so the
/// search sees the tree the extraction reads. A page it does not hold is parsed anew.
///
/// The extraction can also run ahead, while the media search waits for the page's feeds (it is
/// done reading the tree by then: `prepare`); the readerable check and the extract step then
/// take its answers.
///
/// One instance per `piper share` process; the lock guards `held` and `prepared` (the media
/// search's fetch threads run beside the thread that prepares).
public final class PageDocument: @unchecked Sendable {
    private let lock = NSLock()
    private var held: (page: LoadedPage, document: Document)?
    /// An extraction run ahead of the share's extract step (`ReadabilityExtractor.prepare`),
    /// with Readability's readerable check of the tree before the extraction changed it.
    private var prepared: (page: LoadedPage, readerable: Bool, result: Result<Article, ArticleRejection>)?

    public init() {}

    /// Reads `page`'s tree with `check`, then `take`s it for `extract`, and keeps both answers:
    /// `preparedReaderable` and `takePrepared` hand them to the steps that would have run them.
    func prepare(_ page: LoadedPage, check: (Document) -> Bool, extract: (Document) -> Result<Article, ArticleRejection>) {
        let readerable = check(read(page))
        let result = extract(take(page))
        lock.lock()
        prepared = (page, readerable, result)
        lock.unlock()
    }

    /// The readerable check `prepare` made of `page`'s tree; nil when none was prepared for it.
    func preparedReaderable(_ page: LoadedPage) -> Bool? {
        lock.lock()
        defer { lock.unlock() }
        guard let prepared, Self.same(prepared.page, page) else { return nil }
        return prepared.readerable
    }

    /// The extraction `prepare` kept for `page`, handed over once; nil when none was prepared.
    func takePrepared(_ page: LoadedPage) -> Result<Article, ArticleRejection>? {
        lock.lock()
        defer { lock.unlock() }
        guard let prepared, Self.same(prepared.page, page) else { return nil }
        self.prepared = nil
        return prepared.result
    }

    /// The document of `page`, to read without changing it; kept for `take`.
    func read(_ page: LoadedPage) -> Document {
        lock.lock()
        defer { lock.unlock() }
        if let held, Self.same(held.page, page) { return held.document }
        let document = Self.parse(page)
        held = (page, document)
        return document
    }

    /// The document of `page`, to change: the one `read` parsed, handed over once, or a new parse.
    func take(_ page: LoadedPage) -> Document {
        lock.lock()
        defer { lock.unlock() }
        guard let held, Self.same(held.page, page) else { return Self.parse(page) }
        self.held = nil
        return held.document
    }

    /// The page parsed as the article pipeline parses it.
    static func parse(_ page: LoadedPage) -> Document {
        ArticlePipeline.parse([UInt8](page.body), transportEncoding: page.charset, url: page.finalURL.absoluteString)
    }

    /// The same bytes from the same address with the same charset parse to the same tree.
    private static func same(_ a: LoadedPage, _ b: LoadedPage) -> Bool {
        a.finalURL == b.finalURL && a.contentType == b.contentType && a.body == b.body
    }
}
