import Foundation

/// `/library` (the page), `POST /library/remove` (a removal from the page), `/library/feed-qr.svg`
/// (the feed URL's QR code), and the page's public assets `/library.css` and `/library.js`.
struct LibraryPageRoute: HTTPResponder {
    let shelf: LibraryShelf
    let auth: ShareAuth
    let publicURL: LateValue

    static let paths: Set<String> = ["/library", "/library/", "/library/remove", "/library/feed-qr.svg", "/library.css", "/library.js"]

    func respond(to request: HTTPRequest) throws -> HTTPResponse {
        switch request.path {
        case "/library.css": return try asset(request, "text/css; charset=utf-8", LibraryAssets.css)
        case "/library.js": return try asset(request, "text/javascript; charset=utf-8", LibraryAssets.js)
        case "/library/remove": return try remove(request)
        default: break
        }
        guard request.method == "GET" || request.method == "HEAD" else { throw HTTPError.methodNotAllowed(["GET", "HEAD"]) }
        let credential: Credential
        do {
            credential = try auth.require(request)
        } catch let error as HTTPError {
            return WebPage.wantsJSON(request) ? .error(error) : WebPage.failure(error)
        }
        let secret = try shelf.feed.current()
        let base = publicURL.get()
        if request.path == "/library/feed-qr.svg" {
            guard let svg = QRSVG.render("\(base)/feed/\(secret).xml") else { throw HTTPError.internalError }
            var response = HTTPResponse(status: 200, headers: [("Content-Type", "image/svg+xml"), ("Cache-Control", "no-store")], body: Array(svg.utf8))
            response.device = credential.name
            return response
        }
        let entries = try shelf.items().map { LibraryPage.Entry(item: $0, hasCover: shelf.cover(of: $0) != nil) }
        let notice = request.query["removed"].map { "Removed \($0) from the library." }
        return LibraryPage.render(entries: entries, query: request.query["q"] ?? "", base: base, secret: secret,
                                  device: credential.name, notice: notice)
    }

    private func asset(_ request: HTTPRequest, _ type: String, _ text: String) throws -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else { throw HTTPError.methodNotAllowed(["GET", "HEAD"]) }
        return HTTPResponse(status: 200, headers: [("Content-Type", type), ("Cache-Control", "no-cache")], body: Array(text.utf8))
    }

    /// `POST /library/remove` with `id`: a paired device (or token) from this site only
    /// (`Sec-Fetch-Site`/`Origin`, as for sharing), then the file and its row go together.
    private func remove(_ request: HTTPRequest) throws -> HTTPResponse {
        let credential: Credential
        switch try auth.sameSitePost(request) {
        case .allowed(let allowed): credential = allowed
        case .refused(let refusal): return refusal
        }
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
