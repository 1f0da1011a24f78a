// _getJSONLD: metadata from the first schema.org Article-like JSON-LD block.
import Foundation
import HTML

extension Readability {
    private struct Skip: Error {}

    /// `/^Article|AdvertiserContentArticle|...|APIReference$/` (only the first alternative is
    /// anchored at the start and only the last at the end, as in Readability.js).
    static func isJSONLDArticleType(_ s: String) -> Bool {
        if s.hasPrefix("Article") || s.hasSuffix("APIReference") { return true }
        for t in jsonLdMiddleTypes where s.containsBytes(t) { return true }
        return false
    }

    private static let jsonLdMiddleTypes = [
        "AdvertiserContentArticle", "NewsArticle", "AnalysisNewsArticle", "AskPublicNewsArticle",
        "BackgroundNewsArticle", "OpinionNewsArticle", "ReportageNewsArticle", "ReviewNewsArticle",
        "Report", "SatiricalArticle", "ScholarlyArticle", "MedicalScholarlyArticle",
        "SocialMediaPosting", "BlogPosting", "LiveBlogPosting", "DiscussionForumPosting", "TechArticle",
    ]

    /// `/^https?\:\/\/schema\.org\/?$/`
    static func isSchemaOrg(_ s: String) -> Bool {
        ["http://schema.org", "http://schema.org/", "https://schema.org", "https://schema.org/"].contains(s)
    }

    /// `x.match(jsonLdArticleTypes)` where a non-string `x` throws in JavaScript.
    private func typeMatches(_ value: Any?) throws -> Bool {
        guard let value, !(value is NSNull) else { return false }
        guard let s = value as? String else { throw Skip() }
        return Readability.isJSONLDArticleType(s)
    }

    func getJSONLD(_ scripts: [Node]) -> Metadata {
        for script in scripts where script.getAttribute("type") == "application/ld+json" {
            if let found = try? jsonLDMetadata(script.textContent) { return found }
        }
        return Metadata()
    }

    private func jsonLDMetadata(_ text: String) throws -> Metadata {
        let content = Readability.stripCDATA(text)
        guard let data = content.data(using: .utf8) else { throw Skip() }
        var parsed: Any = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        if let array = parsed as? [Any] {
            var hit: Any?
            for item in array {
                guard let obj = item as? [String: Any] else { throw Skip() }
                if let t = obj["@type"], !(t is NSNull), let s = t as? String, !s.isEmpty {
                    if Readability.isJSONLDArticleType(s) { hit = obj; break }
                } else if let t = obj["@type"], !(t is NSNull), !(t is String) {
                    throw Skip()
                }
            }
            guard let hit else { throw Skip() }
            parsed = hit
        }
        guard var object = parsed as? [String: Any] else { throw Skip() }
        let context = object["@context"]
        var matches = false
        if let s = context as? String {
            matches = Readability.isSchemaOrg(s)
        } else if let obj = context as? [String: Any], let vocab = obj["@vocab"] as? String {
            matches = Readability.isSchemaOrg(vocab)
        }
        if !matches { throw Skip() }

        if object["@type"] == nil || object["@type"] is NSNull || (object["@type"] as? String) == "",
           let graph = object["@graph"] as? [Any] {
            var hit: [String: Any]?
            for item in graph {
                guard let obj = item as? [String: Any] else { throw Skip() }
                if try typeMatches(obj["@type"] ?? "") { hit = obj; break }
            }
            guard let hit else { throw Skip() }
            object = hit
        }
        guard let type = object["@type"], try typeMatches(type) else { throw Skip() }

        var metadata = Metadata()
        let name = object["name"] as? String
        let headline = object["headline"] as? String
        if let name, let headline, name != headline {
            let title = getArticleTitle()
            let nameMatches = textSimilarity(name, title) > 0.75
            let headlineMatches = textSimilarity(headline, title) > 0.75
            metadata.title = headlineMatches && !nameMatches ? headline : name
        } else if let name {
            metadata.title = JSString.trim(name)
        } else if let headline {
            metadata.title = JSString.trim(headline)
        }
        if let author = object["author"], Readability.isTruthy(author) {
            if let obj = author as? [String: Any], let authorName = obj["name"] as? String {
                metadata.byline = JSString.trim(authorName)
            } else if let list = author as? [Any], let first = list.first as? [String: Any], first["name"] is String {
                metadata.byline = list.compactMap { ($0 as? [String: Any])?["name"] as? String }
                    .map(JSString.trim).joined(separator: ", ")
            }
        }
        if let description = object["description"] as? String { metadata.excerpt = JSString.trim(description) }
        if let publisher = object["publisher"] as? [String: Any], let siteName = publisher["name"] as? String {
            metadata.siteName = JSString.trim(siteName)
        }
        if let date = object["datePublished"] as? String { metadata.publishedTime = JSString.trim(date) }
        return metadata
    }

    static func isTruthy(_ value: Any) -> Bool {
        if value is NSNull { return false }
        if let s = value as? String { return !s.isEmpty }
        if let n = value as? NSNumber { return n.doubleValue != 0 }
        return true
    }

    /// `replace(/^\s*<!\[CDATA\[|\]\]>\s*$/g, "")`
    static func stripCDATA(_ s: String) -> String {
        var t = Substring(s)
        let leadTrimmed = t.drop(while: { $0.unicodeScalars.allSatisfy(JSString.isSpace) })
        if leadTrimmed.hasPrefix("<![CDATA[") { t = leadTrimmed.dropFirst(9) }
        var end = t.endIndex
        while end > t.startIndex, t[t.index(before: end)].unicodeScalars.allSatisfy(JSString.isSpace) {
            end = t.index(before: end)
        }
        if t[..<end].hasSuffix("]]>") { t = t[..<t.index(end, offsetBy: -3)] }
        return String(t)
    }
}
