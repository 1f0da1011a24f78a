import Extraction
import Foundation
import HTML
import Readability

// Parse a saved page and extract its article, as `piper extract` does.
let path = CommandLine.arguments.dropFirst().first ?? "page.html"
let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
let url = "https://example.org/story"

// One call: decode, parse (scripting off), extract, apply the 140-character minimum.
do {
    let article = try ArticlePipeline(mode: .readability).run(bytes, url: url)
    print(article.title ?? "(untitled)", article.length, "characters")
} catch {
    print("not an article:", error)    // ArticleRejection: noContent, tooShort, engineFailed
}

// Or step by step: the HTML parser's tree, then Readability on it.
let document = Document.parse(bytes: bytes, options: ParseOptions(scripting: false))
print(document.title, isProbablyReaderable(document))
if let article = try Readability.parse(document, url: url) { print(article.excerpt ?? "") }
