import Foundation
import HTML
import PiperCore

/// What an element says about the media file it holds or links.
enum MediaEvidence {
    /// A muted, looping video is decoration or a preview (it is started by the page itself,
    /// by `autoplay` or by script), never the thing the page is about.
    static func isPreviewClip(_ element: Node) -> Bool {
        element.localName == "video" && element.hasAttribute("muted") && element.hasAttribute("loop")
    }

    /// Elements, roles and the class-name words (the English vocabulary sites use everywhere)
    /// that mark a box as beside the main content.
    static let besideElements: Set<String> = ["aside", "nav", "footer"]
    static let besideRoles: Set<String> = ["banner", "navigation", "complementary", "contentinfo"]
    static let besideWords: Set<String> = [
        "sidebar", "related", "promo", "promotion", "widget", "advert", "advertisement", "ad", "ads", "sponsor", "sponsored",
        "newsletter", "banner", "footer", "nav", "navigation", "menu", "recommended", "trending", "popular", "teaser",
    ]

    /// In the page's navigation, an aside, a footer, a site header (one outside any `article` or
    /// `main`), or a box whose role, class or id says it is beside the main content.
    static func isIncidental(_ element: Node) -> Bool {
        var node = element.parentElement
        var inSiteHeader = false
        while let current = node, current.localName != "body", current.localName != "html" {
            let name = current.localName
            if besideElements.contains(name) { return true }
            if name == "header" { inSiteHeader = true }
            if name == "article" || name == "main" { inSiteHeader = false }
            if let role = current.getAttribute("role")?.lowercased(), besideRoles.contains(role) { return true }
            let words = [current.getAttribute("class"), current.getAttribute("id")].compactMap { $0 }.joined(separator: " ")
            if !words.isEmpty, words.lowercased().split(whereSeparator: { !$0.isLetter }).contains(where: { besideWords.contains(String($0)) }) {
                return true
            }
            node = current.parentElement
        }
        return inSiteHeader
    }

    /// The element's own name for its media: its `title` or `aria-label`.
    static func name(of element: Node) -> String? {
        (element.getAttribute("title") ?? element.getAttribute("aria-label"))?.trimmingWhitespaceAndNewlines() ?? cardTitle(of: element)
    }

    /// The title a player's own card shows beside it (Ghost's audio card: `kg-audio-title`):
    /// an element whose class names a title, in the player's immediate box, when that box holds
    /// no heading (a box with the page's heading is the article, not the player's card).
    static func cardTitle(of element: Node) -> String? {
        guard element.localName == "audio" || element.localName == "video", let box = element.parentElement,
              box.localName != "article", box.localName != "main", box.localName != "body",
              box.querySelector("h1, h2, h3") == nil,
              let title = box.querySelector("[class*=title]")?.textContent.trimmingWhitespaceAndNewlines(),
              !title.isEmpty, title.count <= 200 else { return nil }
        return title
    }

    /// Attributes in which a player's element names its file (Pocket Casts' `data-audio-url`).
    static let fileAttributes = ["data-audio-url", "data-mp3-url", "data-episode-url", "data-media-url", "data-enclosure-url",
                                 "data-audio-src", "data-audio"]

    /// A title a player's element carries in its data (`data-episode-title`, `data-title`).
    static func titleAttribute(of element: Node) -> String? {
        (element.getAttribute("data-episode-title") ?? element.getAttribute("data-title"))?.trimmingWhitespaceAndNewlines()
    }

    /// A link that offers its file for download: a `download` attribute, or "download" in its
    /// text, title or class (PowerPress' "Download", Seriously Simple Podcasting's "Download file").
    static func offersDownload(_ link: Node) -> Bool {
        if link.hasAttribute("download") { return true }
        return [link.textContent, link.getAttribute("title") ?? "", link.getAttribute("class") ?? ""]
            .contains { $0.lowercased().contains("download") }
    }

    /// A link its box labels "Direct download" (Libsyn's classic post footer:
    /// "Direct download: episode.mp3").
    static func isDirectDownload(_ link: Node) -> Bool {
        guard let box = link.parentElement else { return false }
        let text = box.textContent.lowercased()
        return text.count < 400 && text.contains("direct download")
    }

    /// A file as two addresses of it agree: host and file name.
    static func fileKey(_ url: URL) -> String {
        "\(url.host?.lowercased() ?? "")/\(url.lastPathComponent)"
    }

    /// The length an element states in seconds (`data-durationhint`, as MediaWiki writes it;
    /// `data-duration`).
    static func duration(of element: Node) -> Double? {
        for attribute in ["data-durationhint", "data-duration"] {
            if let value = element.getAttribute(attribute).flatMap({ Double($0.trimmingWhitespace()) }), value > 0 { return value }
        }
        return nil
    }

    /// Two names for one thing: most of the words of the shorter are in the longer, and they
    /// share at least half of the longer's ("Ep 42: Trains" and "Ep 42: Trains | The Show").
    static func sameName(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return false }
        let left = words(a), right = words(b)
        let shorter = min(left.count, right.count), longer = max(left.count, right.count)
        guard shorter >= 2 else { return false }
        let shared = left.intersection(right).count
        return Double(shared) >= 0.8 * Double(shorter) && Double(shared) >= 0.5 * Double(longer)
    }

    static func words(_ text: String) -> Set<String> {
        Set(text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init))
    }

    /// An ISO 8601 duration (`PT1M2S`, `PT62S`, `P0DT1H`) in seconds.
    static func seconds(iso8601 text: String) -> Double? {
        let upper = text.trimmingWhitespace().uppercased()
        guard upper.hasPrefix("P") else { return Double(upper) }
        var total = 0.0, number = "", inTime = false, any = false
        for character in upper.dropFirst() {
            if character.isNumber || character == "." || character == "," {
                number.append(character == "," ? "." : character)
                continue
            }
            if character == "T" { inTime = true; continue }
            guard let value = Double(number) else { return nil }
            number = ""
            any = true
            switch (character, inTime) {
            case ("D", false): total += value * 86_400
            case ("W", false): total += value * 604_800
            case ("H", true): total += value * 3600
            case ("M", true): total += value * 60
            case ("S", true): total += value
            default: return nil   // years and months have no fixed length
            }
        }
        return any && number.isEmpty ? total : nil
    }
}
