import Foundation

/// `/library` (the page), `POST /library/remove` (a removal from the page), `/library/feed-qr.svg`
/// (the feed URL's QR code), and the page's public assets `/library.css` and `/library.js`.
struct LibraryPageRoute: Sendable {
    let shelf: LibraryShelf
    let publicURL: LateValue

    /// The feed URL's QR code.
    func feedQR(_ context: RouteContext) throws -> HTTPResponse {
        let credential = try context.requiredCredential()
        guard let svg = QRSVG.render("\(publicURL.get())/feed/\(try shelf.feed.current()).xml") else { throw HTTPError.internalError }
        var response = HTTPResponse(status: 200, headers: [("Content-Type", "image/svg+xml"), ("Cache-Control", "no-store")], body: Array(svg.utf8))
        response.device = credential.name
        return response
    }

    /// The library page.
    func page(_ request: HTTPRequest, _ context: RouteContext) throws -> HTTPResponse {
        let credential = try context.requiredCredential()
        let secret = try shelf.feed.current()
        let base = publicURL.get()
        let entries = PlayOrder.grouped(try shelf.items(), shelf: shelf).map { LibraryPage.Entry(item: $0, hasCover: shelf.cover(of: $0) != nil) }
        let notice = request.query["removed"].map { "Removed \($0) from the library." }
        return LibraryPage.render(entries: entries, query: request.query["q"] ?? "", base: base, secret: secret,
                                  device: credential.name, notice: notice, phone: WebPage.isPhone(request))
    }

    static func asset(_ type: String, _ text: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", type), ("Cache-Control", "no-cache")], body: Array(text.utf8))
    }

    /// `POST /library/remove` with `id`: a paired device (or token) from this site only
    /// (`Sec-Fetch-Site`/`Origin`, as for sharing: the table's `sameSitePost`), then the file and
    /// its row go together.
    func remove(_ request: HTTPRequest, _ context: RouteContext) throws -> HTTPResponse {
        let credential = try context.requiredCredential()
        let fields = try ShareRoute.fields(of: request)
        guard let id = fields["id"], !id.isEmpty else { throw HTTPError(400, "Name the item to remove with id") }
        let item = try shelf.remove(id: id)
        var response: HTTPResponse
        if WebPage.wantsJSON(request) {
            response = .json(200, ["removed": item.path])
        } else {
            let title = item.title.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            response = HTTPResponse(status: 303, headers: [("Location", "/library?removed=\(title)"), ("Cache-Control", "no-store")])
        }
        response.device = credential.name
        return response
    }
}

/// A QR code as SVG (one path of dark modules, a quiet zone of four), for the library page.
enum QRSVG {
    static func render(_ text: String) -> String? {
        guard let modules = TerminalQR.modules(text) else { return nil }
        let size = modules.count + 8
        var path = ""
        for (y, row) in modules.enumerated() {
            for (x, dark) in row.enumerated() where dark { path += "M\(x + 4) \(y + 4)h1v1h-1z" }
        }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(size) \(size)\" shape-rendering=\"crispEdges\">"
            + "<rect width=\"\(size)\" height=\"\(size)\" fill=\"#fff\"/><path d=\"\(path)\" fill=\"#000\"/></svg>"
    }
}
