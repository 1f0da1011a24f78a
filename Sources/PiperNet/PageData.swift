import Foundation
import HTML
import PiperCore

/// The audio files a page names in its own data rather than in its markup: the JSON a
/// framework hydrates the page from (Next.js' `__NEXT_DATA__`, Apple's server data, any
/// `<script type="application/json">`), a script's object (`window.__preloads = {…}`,
/// `= JSON.parse("…")`: Substack, SoundCloud's hydration, a player's playlist item), and a
/// block's `data-*-json` attribute (Squarespace's audio block). Each file comes with the name
/// of the object that holds it (its `title`, `name`…), so the route can tell the page's own
/// episode from a list of a show's others.
enum PageData {
    struct Item: Equatable {
        var url: String
        var name: String?
    }

    /// Keys that name an object: its title, as players and hosts spell it.
    static let nameKeys = ["title", "name", "episodeTitle", "episode_title", "headline"]
    /// At most this many bytes of one script are read (a page's whole store can be megabytes).
    static let maximumScriptBytes = 4 << 20

    /// Every media file the page's data names, in document order, each once.
    static func read(_ document: Document) -> [Item] {
        var items: [Item] = []
        for script in document.node.querySelectorAll("script") where !script.hasAttribute("src") {
            let type = (script.getAttribute("type") ?? "").lowercased()
            if type.hasPrefix("application/ld+json") { continue }   // JSON-LD is read as such
            guard type.isEmpty || type.contains("json") || type.contains("javascript") || type == "module" else { continue }
            let text = script.textContent
            guard text.utf8.count <= maximumScriptBytes, mayNameMedia(text) else { continue }
            items += type.contains("json") ? fromJSON(text) : fromScript(text)
        }
        for element in document.node.querySelectorAll("[data-block-json], [data-json], [data-props], [data-episode]") {
            for attribute in element.attributes where attribute.name.hasPrefix("data-") {
                let value = attribute.value
                guard value.first == "{" || value.first == "[", mayNameMedia(value) else { continue }
                items += fromJSON(value)
            }
        }
        var seen = Set<String>()
        return items.filter { seen.insert($0.url).inserted }
    }

    /// A cheap look before any parse, one pass over the bytes: does the text hold `.` and an
    /// audio extension (lower case, as addresses write them) at all?
    static func mayNameMedia(_ text: String) -> Bool {
        let utf8 = text.utf8
        return utf8.withContiguousStorageIfAvailable { bytes in
            var index = bytes.startIndex
            while let dot = bytes[index...].firstIndex(of: UInt8(ascii: ".")) {
                var end = dot + 1
                while end < bytes.endIndex, end - dot <= 4, (0x61...0x7A).contains(bytes[end]) || (0x30...0x39).contains(bytes[end]) { end += 1 }
                if end - dot > 2, MediaLinks.audioExtensions.contains(String(decoding: bytes[(dot + 1)..<end], as: UTF8.self)) { return true }
                index = dot + 1
            }
            return false
        } ?? MediaLinks.audioExtensions.contains { text.contains(".\($0)") }
    }

    /// The files of one JSON document (nothing when it is not JSON).
    static func fromJSON(_ text: String) -> [Item] {
        guard let json = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else { return [] }
        var items: [Item] = []
        walk(json, name: nil, into: &items)
        return items
    }

    /// The files of a script: each object or array assigned (`= {…}`, `= […]`, `JSON.parse("…")`)
    /// read as JSON; any media URL left in the text after that, without a name.
    static func fromScript(_ text: String) -> [Item] {
        var items: [Item] = []
        var parsedAny = false
        let scalars = Array(text.utf8)
        // The bytes the search for closing brackets may read in all: a few times the script's
        // length, so a script of many openers that never close (`=["a",=["a",…`) costs a linear
        // scan, not one to its end from every opener.
        var budget = 4 * scalars.count + 65_536
        var index = 0
        while index < scalars.count, budget > 0 {
            defer { index += 1 }
            guard scalars[index] == UInt8(ascii: "=") || scalars[index] == UInt8(ascii: "(") else { continue }
            var start = index + 1
            while start < scalars.count, scalars[start] == 0x20 || scalars[start] == 0x0A || scalars[start] == 0x09 { start += 1 }
            guard start < scalars.count else { break }
            if looksLikeJSON(scalars, at: start), let end = balancedEnd(scalars, from: start, budget: &budget) {
                let json = String(decoding: scalars[start...end], as: UTF8.self)
                if (try? JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])) != nil {
                    parsedAny = true
                    items += fromJSON(json)
                    index = end
                }
            } else if scalars[start] == UInt8(ascii: "\""), let end = stringEnd(scalars, from: start),
                      let inner = try? JSONSerialization.jsonObject(with: Data(scalars[start...end]), options: [.fragmentsAllowed]) as? String {
                // `JSON.parse("{\"post\": …}")`: a JSON document inside a string literal.
                if let json = try? JSONSerialization.jsonObject(with: Data(inner.utf8)) {
                    parsedAny = true
                    walk(json, name: nil, into: &items)
                }
                index = end
            }
        }
        // A script whose data parsed has said what it names (a narration it holds was left
        // out on purpose); only a script with no readable data is searched for bare addresses.
        guard !parsedAny else { return items }
        return bareURLs(in: text).map { Item(url: $0, name: nil) }
    }

    /// Walks a JSON value: a string that is a media file's web address is an item, named by
    /// the nearest object's title.
    static func walk(_ value: Any, name: String?, into items: inout [Item]) {
        if let array = value as? [Any] {
            for element in array { walk(element, name: name, into: &items) }
        } else if let object = value as? [String: Any] {
            // A narration of the page's text (Substack's "listen to this post": type "tts", a
            // voice) reads the article; it is not an episode.
            if object["voice_id"] != nil || object["voiceId"] != nil
                || ["tts", "narration", "text-to-speech"].contains((object["type"] as? String)?.lowercased() ?? "") { return }
            let own = nameKeys.lazy.compactMap { object[$0] as? String }.first { !$0.isEmpty } ?? name
            for key in object.keys.sorted() { walk(object[key]!, name: own, into: &items) }
        } else if let text = value as? String, isMediaAddress(text) {
            items.append(Item(url: text, name: name))
        }
    }

    /// A web address whose path ends in an audio extension. A page's data names its videos'
    /// files too (a news story's clip, a product's turntable video), so only audio, what a
    /// podcast host's page data carries, is taken from it.
    static func isMediaAddress(_ text: String) -> Bool {
        guard text.hasPrefix("http://") || text.hasPrefix("https://") || text.hasPrefix("//"),
              let url = URL(string: text.hasPrefix("//") ? "https:" + text : text) else { return false }
        return MediaLinks.audioExtensions.contains(url.pathExtension.lowercased())
    }

    /// An object or array as JSON writes it (`{"`, `[{"`, `["`), not a script's own literal
    /// (`{a: …}`, `[x, y]`): only those are worth a parse.
    static func looksLikeJSON(_ bytes: [UInt8], at start: Int) -> Bool {
        guard bytes[start] == UInt8(ascii: "{") || bytes[start] == UInt8(ascii: "[") else { return false }
        var index = start
        while index < bytes.count, bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "[")
                || bytes[index] == 0x20 || bytes[index] == 0x0A { index += 1 }
        return index < bytes.count && bytes[index] == UInt8(ascii: "\"")
    }

    /// The index of the `}`/`]` closing the object or array at `start`, skipping strings; nil
    /// when it does not close, or when `budget` (bytes read, counted down) runs out first.
    static func balancedEnd(_ bytes: [UInt8], from start: Int, budget: inout Int) -> Int? {
        var depth = 0, index = start
        defer { budget -= index - start + 1 }
        while index < bytes.count, index - start < budget {
            switch bytes[index] {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                guard let end = stringEnd(bytes, from: index) else { return nil }
                index = end
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
            index += 1
        }
        return nil
    }

    /// The index of the quote closing the string literal at `start`.
    static func stringEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        let quote = bytes[start]
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\") { index += 2; continue }
            if bytes[index] == quote { return index }
            if bytes[index] == 0x0A { return nil }
            index += 1
        }
        return nil
    }

    /// Media addresses written out in a script's text (`\/` and `\u002F` unescaped).
    static func bareURLs(in text: String) -> [String] {
        let plain = text.replacingOccurrences(of: "\\/", with: "/").replacingOccurrences(of: "\\u002F", with: "/")
            .replacingOccurrences(of: "\\u002f", with: "/")
        var found: [String] = []
        var rest = plain[...]
        while let start = rest.range(of: "http") {
            let tail = rest[start.lowerBound...]
            let end = tail.firstIndex { $0 == "\"" || $0 == "'" || $0 == " " || $0 == "\\" || $0 == "<" || $0 == ")" || $0.isNewline }
                ?? tail.endIndex
            let candidate = String(tail[..<end])
            if isMediaAddress(candidate) { found.append(candidate) }
            rest = tail[tail.index(start.lowerBound, offsetBy: 4)...]
        }
        return found
    }
}
