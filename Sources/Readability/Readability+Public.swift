// Post-processing steps offered to later stages (the piper extraction mode), so a container
// chosen outside grabArticle gets the same absolute URLs and class cleanup as Readability's.
import HTML

extension Readability {
    /// Makes the links and media URLs under `root` absolute against `url` (and the page's
    /// `<base href>`), as `_fixRelativeUris` does for the article.
    package static func fixRelativeURIs(in root: Node, url: String?) {
        Readability(root.document, url: url).fixRelativeUris(root)
    }

    /// Removes every class under `root` (and on it) except "page" and `preserving`, as
    /// `_cleanClasses` does for the article.
    package static func cleanClasses(in root: Node, preserving: [String] = []) {
        Readability(root.document, options: ReadabilityOptions(classesToPreserve: preserving)).cleanClasses(root)
    }

    /// `_getInnerText(node).length`: the trimmed text with whitespace runs collapsed, in UTF-16 units.
    package static func innerTextLength(_ node: Node) -> Int {
        Readability(node.document).textStats(node).length
    }

    /// JavaScript's `length` of `s` (UTF-16 code units), counted over its UTF-8 bytes.
    package static func utf16Length(_ s: String) -> Int {
        JSString.length(s)
    }
}
