import Extraction
import HTML

/// The plain text `mode` extracts from `html`, parsed as the article pipeline parses (nil: no
/// article). The suites' small pages go through here.
func extractedText(_ html: String, url: String, mode: ExtractionMode = .piper) throws -> String? {
    let document = Document.parse(html, options: ArticlePipeline.parseOptions())
    return try Extraction.extract(document, url: url, mode: mode)?.textContent
}
