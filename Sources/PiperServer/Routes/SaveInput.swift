import Foundation
import PiperCore

/// The validated body of a save: `title` and `content` strings, non-empty after trimming, and
/// the optional metadata fields (`SaveInput+Metadata`), each checked or refused by name.
struct SaveInput: Equatable {
    let title: String
    let content: String
    let metadata: ArticleMetadata

    init(json body: [UInt8]) throws {
        guard !body.isEmpty else { throw HTTPError(400, "Request body is empty; expected JSON with title and content") }
        let rawTitle: String, rawContent: String
        if let flat = FlatJSON.stringObject(body) {
            rawTitle = try Self.field("title", flat["title"])
            rawContent = try Self.field("content", flat["content"])
            metadata = try Self.metadata { flat[$0] }
        } else {
            let object = try Self.parsedByFoundation(body)
            rawTitle = try Self.field("title", in: object)
            rawContent = try Self.field("content", in: object)
            metadata = try Self.metadata { name in
                guard let value = object[name], !(value is NSNull) else { return nil }
                guard let text = value as? String else { throw HTTPError(400, "Field '\(name)' must be a string") }
                return text
            }
        }
        // U+0000 cannot be stored in PostgreSQL text and means nothing in HTML: replace it.
        title = Self.withoutNUL(Self.trimmed(rawTitle))
        content = Self.withoutNUL(rawContent)
    }

    /// A shared article the server extracted itself, saved with the same rules as a body that
    /// says the same (no JSON in between).
    init(article: ExtractedArticle) throws {
        let rawTitle = try Self.field("title", article.title)
        let rawContent = try Self.field("content", article.content)
        metadata = try Self.metadata { article.metadata[field: $0] }
        title = Self.withoutNUL(Self.trimmed(rawTitle))
        content = Self.withoutNUL(rawContent)
    }

    /// Bodies `FlatJSON` declines: any JSON, with its errors.
    static func parsedByFoundation(_ body: [UInt8]) throws -> [String: Any] {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])
        } catch {
            throw HTTPError(400, "Request body is not valid JSON")
        }
        guard let object = parsed as? [String: Any] else {
            throw HTTPError(400, "Request body must be a JSON object with title and content")
        }
        return object
    }

    /// `text` with U+0000 replaced by U+FFFD (searched byte-wise first: it is almost never there).
    static func withoutNUL(_ text: String) -> String {
        text.utf8.contains(0) ? text.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}") : text
    }

    /// `text.trimmingCharacters(in: .whitespacesAndNewlines)`, skipping Foundation when both ends
    /// are visibly non-blank ASCII (the usual title).
    static func trimmed(_ text: String) -> String {
        if let first = text.utf8.first, let last = text.utf8.last, isVisibleASCII(first), isVisibleASCII(last) { return text }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// True when `text` has something besides whitespace; decided from the first byte when that
    /// is visible ASCII.
    static func hasContent(_ text: String) -> Bool {
        if let first = text.utf8.first, isVisibleASCII(first) { return true }
        return !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }

    private static func isVisibleASCII(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }

    private static func field(_ name: String, in object: [String: Any]) throws -> String {
        guard let value = object[name], !(value is NSNull) else { throw HTTPError(400, "Missing field '\(name)'") }
        guard let text = value as? String else { throw HTTPError(400, "Field '\(name)' must be a string") }
        return try field(name, text)
    }

    private static func field(_ name: String, _ value: String?) throws -> String {
        guard let text = value else { throw HTTPError(400, "Missing field '\(name)'") }
        guard hasContent(text) else {
            throw HTTPError(400, "Field '\(name)' is empty")
        }
        return text
    }
}
