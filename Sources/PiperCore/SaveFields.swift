import Foundation

/// The rules for a save's optional fields, shared by the backend (which refuses a field that
/// breaks them, naming it) and the client (which leaves out or shortens such a field, so a page
/// with an odd `lang` still saves).
package enum SaveFields {
    /// Longest accepted value per free-text field, in characters (after trimming).
    package static let textLimits: [(name: String, limit: Int)] = [
        ("byline", 300), ("siteName", 300), ("publishedTime", 64), ("excerpt", 2000),
    ]
    /// The longest source URL a save may carry, in bytes.
    package static let urlLimit = 2048
    /// The values `dir` may take.
    package static let directions: Set<String> = ["ltr", "rtl", "auto"]

    /// The length limit of the text field `name`, or nil for a field without one.
    package static func limit(of name: String) -> Int? { textLimits.first { $0.name == name }?.limit }

    /// An absolute http(s) URL with a host and no whitespace or controls, at most `urlLimit` bytes.
    package static func isHTTPURL(_ text: String) -> Bool {
        guard text.utf8.count <= urlLimit,
              !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }),
              let url = URL(string: text), WebURL.isWeb(url) else { return false }
        return true
    }

    /// A well-formed BCP 47 tag by RFC 5646's shape: a primary subtag of 2–8 letters (or `x`/`i`
    /// for private and grandfathered tags), then subtags of 1–8 letters or digits; at most 35
    /// characters (the length RFC 5646 § 4.4.1 asks implementations to keep).
    package static func isLanguageTag(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 35 else { return false }
        let subtags = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let primary = subtags.first else { return false }
        func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        let privateUse = primary.lowercased() == "x" || primary.lowercased() == "i"
        guard primary.utf8.allSatisfy(isLetter), (2...8).contains(primary.utf8.count) || privateUse else { return false }
        if privateUse && subtags.count < 2 { return false }
        return subtags.dropFirst().allSatisfy { (1...8).contains($0.utf8.count) && $0.utf8.allSatisfy { isLetter($0) || isDigit($0) } }
    }
}

extension ExtractedArticle {
    /// This article with every optional field the backend would refuse left out, and free text
    /// longer than its limit shortened (with an ellipsis).
    package func fittingSaveRules() -> ExtractedArticle {
        func text(_ value: String?, _ name: String) -> String? {
            guard let trimmed = value?.trimmingWhitespaceAndNewlines(), !trimmed.isEmpty else { return nil }
            guard let limit = SaveFields.limit(of: name), trimmed.count > limit else { return trimmed }
            return String(trimmed.prefix(limit - 1)) + "…"
        }
        var copy = self
        copy.byline = text(byline, "byline")
        copy.siteName = text(siteName, "siteName")
        copy.publishedTime = text(publishedTime, "publishedTime")
        copy.excerpt = text(excerpt, "excerpt")
        copy.sourceURL = sourceURL.flatMap { SaveFields.isHTTPURL($0) ? $0 : nil }
        copy.lang = lang.flatMap { SaveFields.isLanguageTag($0) ? $0 : nil }
        copy.dir = dir.map { $0.lowercased() }.flatMap { SaveFields.directions.contains($0) ? $0 : nil }
        return copy
    }
}
