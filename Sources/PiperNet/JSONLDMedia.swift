import Foundation
import HTML
import PiperCore

/// A page's JSON-LD: the types of its top-level entities (the root, an array's items, a
/// `@graph`'s members), and its media objects with a file.
struct JSONLDMedia {
    struct Item {
        var url: String
        var signal: String
        /// `contentUrl` names the file itself; a plain `url` counts only with a media extension.
        var namesTheFile: Bool
        /// The object's name, or that of the episode it belongs to.
        var name: String?
        var duration: Double?
        /// Its `encodingFormat` (a MIME type), when given.
        var format: String?
    }

    static let mediaTypes: Set<String> = ["audioobject", "videoobject", "mediaobject", "podcastepisode", "episode", "audiobook", "musicrecording"]

    var topLevelTypes: [String] = []
    var media: [Item] = []

    static func read(_ document: Document) -> JSONLDMedia {
        var found = JSONLDMedia()
        for script in document.node.querySelectorAll("script[type]") where script.getAttribute("type")?.lowercased().hasPrefix("application/ld+json") == true {
            guard let json = try? JSONSerialization.jsonObject(with: Data(script.textContent.utf8)) else { continue }
            for top in topLevel(json) {
                found.topLevelTypes += types(of: top)
                found.walk(top, parentName: nil)
            }
        }
        return found
    }

    static func topLevel(_ json: Any) -> [[String: Any]] {
        if let array = json as? [Any] { return array.flatMap(topLevel) }
        guard let object = json as? [String: Any] else { return [] }
        if let graph = object["@graph"] { return [object] + topLevel(graph) }
        return [object]
    }

    static func types(of object: [String: Any]) -> [String] {
        ((object["@type"] as? String).map { [$0] } ?? (object["@type"] as? [String]) ?? []).map { $0.lowercased() }
    }

    mutating func walk(_ value: Any, parentName: String?) {
        if let array = value as? [Any] {
            for item in array { walk(item, parentName: parentName) }
            return
        }
        guard let object = value as? [String: Any] else { return }
        let kinds = Self.types(of: object)
        let name = (object["name"] as? String) ?? (object["headline"] as? String) ?? parentName
        if let kind = kinds.first(where: Self.mediaTypes.contains) {
            let duration = (object["duration"] as? String).flatMap(MediaEvidence.seconds(iso8601:))
            let signal = "json-ld \((object["@type"] as? String) ?? kind)"
            let format = (object["encodingFormat"] as? String)?.lowercased()
            if let url = (object["contentUrl"] ?? object["contentURL"]) as? String {
                media.append(Item(url: url, signal: signal, namesTheFile: true, name: name, duration: duration, format: format))
            } else if let url = object["url"] as? String {
                media.append(Item(url: url, signal: signal, namesTheFile: false, name: name, duration: duration, format: format))
            }
        }
        for key in ["associatedMedia", "audio", "video", "encoding", "mainEntity", "hasPart", "subjectOf", "trailer"] {
            if let nested = object[key] { walk(nested, parentName: name) }
        }
    }
}
