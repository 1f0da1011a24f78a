import Extraction
import Foundation
import HTML
import PiperCore

/// PiperNet's parse of a page (`ContentExtractor.parse`): the document as the article pipeline
/// parses it, read by the steps of a share that only look (the route evidence, the readerable
/// check) and then taken by the extraction, which changes it as Readability does. A step that
/// comes after the extraction took it reads a new parse.
///
/// `@unchecked Sendable`: `document` is guarded by `lock` (a share's steps run one at a time;
/// the lock keeps a misuse from racing).
final class DocumentTree: PageTree, @unchecked Sendable {
    private let lock = NSLock()
    private var document: Document?
    let page: LoadedPage

    init(_ page: LoadedPage) {
        self.page = page
        document = Self.parse(page)
    }

    /// The document, to read without changing it.
    func read() -> Document {
        lock.lock()
        defer { lock.unlock() }
        if let document { return document }
        let parsed = Self.parse(page)
        document = parsed
        return parsed
    }

    /// The document, to change: handed over once.
    func take() -> Document {
        lock.lock()
        defer { lock.unlock() }
        if let document {
            self.document = nil
            return document
        }
        return Self.parse(page)
    }

    /// The page parsed as the article pipeline parses it.
    static func parse(_ page: LoadedPage) -> Document {
        ArticlePipeline.parse([UInt8](page.body), transportEncoding: page.charset, url: page.finalURL.absoluteString)
    }

    /// The document of `parsed` to read: its tree's when PiperNet made it, else a new parse.
    static func reading(_ parsed: ParsedPage) -> Document {
        (parsed.tree as? DocumentTree)?.read() ?? parse(parsed.page)
    }

    /// The document of `parsed` to change.
    static func taking(_ parsed: ParsedPage) -> Document {
        (parsed.tree as? DocumentTree)?.take() ?? parse(parsed.page)
    }
}
