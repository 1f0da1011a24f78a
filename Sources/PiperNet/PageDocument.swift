import Extraction
import Foundation
import HTML
import PiperCore

/// One parse of a loaded page for the steps of a share that read it: the media search reads
/// the document (`PageMediaFinder`), then the extraction takes it (`ReadabilityExtractor`),
/// which changes it as Readability does. Both parse with the article pipeline's options, so the
/// search sees the tree the extraction reads. A page it does not hold is parsed anew.
///
/// One instance per `piper share` process; the lock only guards against a caller that shares
/// it between threads.
public final class PageDocument: @unchecked Sendable {
    private let lock = NSLock()
    private var held: (page: LoadedPage, document: Document)?

    public init() {}

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
