import Foundation

/// A parse of a page's bytes that only the extractor that made it can read (PiperNet's HTML
/// document). The core passes it from step to step without looking inside.
public protocol PageTree: AnyObject, Sendable {}

/// A loaded page parsed once, by the share flow's `parse` step: the steps after it (the route
/// evidence, the readerable check, the extraction) read this tree, and no step parses the
/// bytes again. The extraction, which changes the tree, comes last.
public final class ParsedPage: Sendable, Equatable {
    /// The page as it was loaded.
    public let page: LoadedPage
    /// The extractor's parse; nil when the extractor keeps none (it then reads `page`).
    public let tree: (any PageTree)?

    /// `page` with the parse `tree` made of it.
    public init(page: LoadedPage, tree: (any PageTree)?) {
        self.page = page
        self.tree = tree
    }

    /// One parse is equal only to itself (two parses of the same bytes are two trees).
    public static func == (a: ParsedPage, b: ParsedPage) -> Bool { a === b }
}
