import Foundation
import MediaImport
import PiperCore

/// `GET /library`: every item with its title, author, duration, chapters, date added and source
/// link, a player, its cover; folders as sections; the feed's URL with a QR code. The text
/// filter works without script (`?q=`); `/library.js` filters as one types and makes chapter
/// links seek the player (without it they are `#t=` media-fragment links).
enum LibraryPage {
    /// As the web app's policy, plus media from this origin.
    static let csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; media-src 'self'; connect-src 'self'; "
        + "manifest-src 'self'; worker-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    struct Entry {
        let item: LibraryItem
        let hasCover: Bool
    }

    static func render(entries: [Entry], query: String, base: String, secret: String, device: String, notice: String? = nil,
                       phone: Bool = false) -> HTTPResponse {
        let e = WebPage.e
        let feedURL = "\(base)/feed/\(secret).xml"
        // The QR code is for another device to scan: on a phone it waits behind a disclosure.
        let qr = "<img src=\"/library/feed-qr.svg\" alt=\"QR code of the feed URL\" id=\"feed-qr\" width=\"220\" height=\"220\">"
        let words = searchWords(query)
        let shown = entries.filter { matches($0.item, words) }
        var groups: [(folder: String, entries: [Entry])] = []
        for entry in shown {
            let folder = LibraryGroups.folder(of: entry.item)
            if let index = groups.firstIndex(where: { $0.folder == folder }) { groups[index].entries.append(entry) } else { groups.append((folder, [entry])) }
        }
        groups.sort { ($0.folder.isEmpty ? 1 : 0, $0.folder) < ($1.folder.isEmpty ? 1 : 0, $1.folder) }
        // With no folders at all there is nothing to tell the loose items apart from: no heading.
        let onlyLoose = groups.count == 1 && groups[0].folder.isEmpty
        let sections = groups.map { group -> String in
            let heading = group.folder.isEmpty ? "Not in a folder" : group.folder
            if onlyLoose { return "<section class=\"group\" data-folder=\"\">\n" + group.entries.map(item).joined(separator: "\n") + "</section>" }
            let feed = group.folder.isEmpty ? "" : " <a class=\"group-feed\" href=\"\(e(base + LibraryGroups.feedPath(secret: secret, folder: group.folder)))\">its own feed</a>"
            return "<section class=\"group\" data-folder=\"\(e(group.folder))\"><h2>\(e(heading))\(feed)</h2>\n"
                + group.entries.map(item).joined(separator: "\n") + "</section>"
        }.joined(separator: "\n")
        let count = entries.count == shown.count ? "\(entries.count) item\(entries.count == 1 ? "" : "s")"
            : "\(shown.count) of \(entries.count) items match"
        let empty = entries.isEmpty ? "<p class=\"muted\" id=\"empty\">Nothing in the library yet: share a podcast episode or an audiobook.</p>"
            : (shown.isEmpty ? "<p class=\"muted\" id=\"empty\">Nothing matches “\(e(query))”.</p>" : "")
        let body = """
            <h1>Library</h1>
            \(notice.map { "<p class=\"notice\" id=\"notice\">\(e($0))</p>" } ?? "")
            <form method="get" action="/library" id="filter-form" class="filter">
            <label for="filter">Filter</label><input type="search" id="filter" name="q" value="\(e(query))" placeholder="title, author, folder…">
            <button type="submit">Filter</button>
            </form>
            <p class="muted" id="count">\(count)</p>
            \(empty)
            \(sections)
            <h2 id="subscribe">Listen on your phone</h2>
            <p>Add this private feed to any podcast app (“Add by URL”). Anyone with the link can listen, so keep it to yourself; <code>piper library feed --revoke</code> replaces it.</p>
            <input type="text" id="feed-url" readonly value="\(e(feedURL))"> <button type="button" data-copy="feed-url" hidden>Copy</button>
            \(phone ? "<details id=\"feed-qr-box\"><summary>QR code, for another device</summary>\(qr)</details>" : "<p>\(qr)</p>")
            <p class="muted">Signed in as \(e(device)).</p>
            """
        let html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Library — Piper</title>
            <link rel="manifest" href="/manifest.webmanifest">
            <link rel="icon" href="/icon-192.png" type="image/png">
            <link rel="stylesheet" href="/app.css">
            <link rel="stylesheet" href="/library.css">
            <link rel="alternate" type="application/rss+xml" title="Piper library" href="\(e(feedURL))">
            <script src="/db.js" defer></script>
            <script src="/app.js" defer></script>
            <script src="/library.js" defer></script>
            </head><body><main class="library">
            <header><a href="/" class="brand">Piper</a> · <a href="/library">Library</a></header>
            \(body)
            </main></body></html>
            """
        var headers = WebPage.headers()
        if let index = headers.firstIndex(where: { $0.name == "Content-Security-Policy" }) { headers[index].value = csp }
        var response = HTTPResponse(status: 200, headers: headers, body: Array(html.utf8))
        response.device = device
        return response
    }

    static func item(_ entry: Entry) -> String {
        let e = WebPage.e
        let item = entry.item
        let id = LibraryShelf.id(of: item)
        let format = MediaFormat(rawValue: item.format)
        let tag = format?.isVideo == true ? "video" : "audio"
        var facts: [String] = []
        if let author = item.author { facts.append("<span class=\"author\">\(e(author))</span>") }
        if let duration = item.duration { facts.append("<span class=\"duration\">\(clock(duration))</span>") }
        if !item.chapters.isEmpty { facts.append("\(item.chapters.count) chapters") }
        facts.append("added <time datetime=\"\(e(item.addedAt))\">\(e(String(item.addedAt.prefix(10))))</time>")
        if let source = item.sourceURL, let url = URL(string: source), WebURL.isWeb(url) {
            facts.append("<a class=\"source\" href=\"\(e(source))\" rel=\"noreferrer noopener\">source</a>")
        } else if !item.originalName.isEmpty, URL(fileURLWithPath: item.originalName).deletingPathExtension().lastPathComponent != item.title {
            // A file shared from a device is listed by its tags' title; the name it was shared
            // under (what the share's page said) is beside it, so the two pages agree.
            facts.append("shared as <span class=\"shared-as\">\(e(item.originalName))</span>")
        }
        let chapters = item.chapters.isEmpty ? "" : "<ol class=\"chapters\">" + item.chapters.map { chapter in
            "<li><a href=\"/media/\(id)#t=\(fragment(chapter.start))\" data-player=\"player-\(id)\" data-start=\"\(fragment(chapter.start))\">"
                + "\(e(chapter.title))</a> <span class=\"muted\">\(clock(chapter.start))</span></li>"
        }.joined() + "</ol>"
        let cover = entry.hasCover ? "<img class=\"cover\" src=\"/media/\(id)/cover\" alt=\"\" width=\"96\" height=\"96\">" : ""
        let text = [item.title, item.author, item.album, item.path, item.originalName].compactMap { $0 }.joined(separator: " ").lowercased()
        return """
            <article class="item" id="item-\(id)" data-id="\(id)" data-text="\(e(text))">
            \(cover)<h3>\(e(item.title))</h3>
            <p class="facts">\(facts.joined(separator: " · "))</p>
            <\(tag) controls preload="metadata" id="player-\(id)" src="/media/\(id)"></\(tag)>
            \(chapters)
            <form method="post" action="/library/remove" class="remove" data-title="\(e(item.title))">
            <input type="hidden" name="id" value="\(id)"><button type="submit">Remove</button>
            </form>
            </article>
            """
    }

    static func searchWords(_ query: String) -> [String] {
        query.lowercased().split { $0 == " " || $0 == "\t" }.map(String.init)
    }

    static func matches(_ item: LibraryItem, _ words: [String]) -> Bool {
        guard !words.isEmpty else { return true }
        let text = [item.title, item.author, item.album, item.path, item.originalName].compactMap { $0 }.joined(separator: " ").lowercased()
        return words.allSatisfy { text.contains($0) }
    }

    static func fragment(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds))" : String(format: "%.3f", seconds)
    }

    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.down))
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
    }
}

