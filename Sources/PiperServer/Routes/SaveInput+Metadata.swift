import Foundation
import PiperCore

/// The optional fields of a save body. Absent, null or blank means "not given"; anything else
/// must pass its rule (`SaveFields`, shared with the client), or the save is a 400 naming the field.
extension SaveInput {
    /// Reads and checks every optional field through `raw` (the field's string, nil when absent).
    static func metadata(_ raw: (String) throws -> String?) throws -> ArticleMetadata {
        func given(_ name: String) throws -> String? {
            guard let value = try raw(name) else { return nil }
            let text = withoutNUL(value.trimmingCharacters(in: .whitespacesAndNewlines))
            return text.isEmpty ? nil : text
        }
        var texts: [String: String] = [:]
        for (name, limit) in SaveFields.textLimits {
            guard let text = try given(name) else { continue }
            guard text.count <= limit else { throw HTTPError(400, "Field '\(name)' is longer than \(limit) characters") }
            texts[name] = text
        }
        var metadata = ArticleMetadata(byline: texts["byline"], siteName: texts["siteName"],
                                       publishedTime: texts["publishedTime"], excerpt: texts["excerpt"])
        if let url = try given("sourceURL") {
            guard url.utf8.count <= SaveFields.urlLimit else {
                throw HTTPError(400, "Field 'sourceURL' is longer than \(SaveFields.urlLimit) bytes")
            }
            guard SaveFields.isHTTPURL(url) else { throw HTTPError(400, "Field 'sourceURL' must be an http(s) URL") }
            metadata.sourceURL = url
        }
        if let dir = try given("dir") {
            guard SaveFields.directions.contains(dir.lowercased()) else {
                throw HTTPError(400, "Field 'dir' must be ltr, rtl or auto")
            }
            metadata.dir = dir.lowercased()
        }
        if let lang = try given("lang") {
            guard SaveFields.isLanguageTag(lang) else { throw HTTPError(400, "Field 'lang' must be a BCP 47 language tag") }
            metadata.lang = lang
        }
        return metadata
    }
}
