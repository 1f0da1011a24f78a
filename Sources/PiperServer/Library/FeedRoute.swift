import Foundation
import MediaImport

/// `GET /feed/<secret>.xml`: the whole library as a podcast; `/feed/<secret>/<folder>.xml`: one
/// folder (a zip's, an `--into` folder) as a show of its own; `/feed/<secret>/chapters/<id>.json`:
/// an item's chapters. The secret is the only credential (podcast apps send no other), so a
/// wrong one is a plain 404.
struct FeedRoute: Sendable {
    let shelf: LibraryShelf
    let publicURL: LateValue

    /// Feeds and chapters are built from tags and names that came with the files: marked as
    /// foreign bytes (`nosniff`, sandboxed), like the files themselves.
    func feed(_ request: HTTPRequest, _ context: RouteContext) throws -> HTTPResponse {
        var response = try answer(context.parameter("feed"))
        response.markForeignBytes()
        return response
    }

    /// `rest`: the path after `/feed/` (the route's `:feed...`): the secret, then `.xml` or a tail.
    private func answer(_ rest: String) throws -> HTTPResponse {
        let secretEnd = rest.firstIndex { $0 == "/" || $0 == "." } ?? rest.endIndex
        let secret = String(rest[..<secretEnd])
        guard shelf.feed.accepts(secret) else { throw HTTPError.notFound }
        let tail = String(rest[secretEnd...])
        let items = try shelf.items()
        let feed = FeedXML(base: publicURL.get(), secret: secret, hasCover: { self.shelf.cover(of: $0) != nil },
                           position: { self.shelf.position(of: $0) })
        if tail == ".xml" {
            return Self.xml(feed.render(title: "Piper library", description: "Everything shared to this Piper library, newest first.",
                                        items: items, serial: false))
        }
        if tail.hasPrefix("/chapters/"), tail.hasSuffix(".json") {
            let id = String(tail.dropFirst("/chapters/".count).dropLast(5))
            guard let item = try shelf.item(id: id), !item.chapters.isEmpty else { throw HTTPError(404, "This item has no chapters") }
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/json+chapters"), ("Cache-Control", "private, max-age=3600")],
                                body: FeedXML.chaptersJSON(item))
        }
        guard tail.hasPrefix("/"), tail.hasSuffix(".xml") else { throw HTTPError.notFound }
        let folder = String(tail.dropFirst().dropLast(4))
        let members = PlayOrder.sorted(items.filter { LibraryGroups.folder(of: $0) == folder }, shelf: shelf)
        guard !folder.isEmpty, !members.isEmpty else { throw HTTPError(404, "No folder of the library is called \(folder)") }
        let name = folder.split(separator: "/").last.map(String.init) ?? folder
        return Self.xml(feed.render(title: name, description: "\(folder), from a Piper library.", items: members, serial: true))
    }

    static func xml(_ text: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", "application/rss+xml; charset=utf-8"), ("Cache-Control", "private, no-cache")],
                     body: Array(text.utf8))
    }
}

/// Folders as groups: an item's group is the folder its file lies in ("" at the library root).
enum LibraryGroups {
    static func folder(of item: LibraryItem) -> String {
        guard let slash = item.path.lastIndex(of: "/") else { return "" }
        return String(item.path[..<slash])
    }

    /// The feed path of a folder (each component percent-encoded, slashes kept).
    static func feedPath(secret: String, folder: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let encoded = folder.split(separator: "/").map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? String($0) }
        return "/feed/\(secret)/\(encoded.joined(separator: "/")).xml"
    }
}
