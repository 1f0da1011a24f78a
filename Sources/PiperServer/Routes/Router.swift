/// Dispatches by path: `/save`, `/healthz`, `/<uuid>`, and when sharing is on `/share`,
/// `/pair` and the web app's pages; anything else is a 404.
/// Each route answers its own wrong methods with 405 and an `Allow` header.
struct Router: HTTPResponder {
    let save: SaveRoute
    let reader: ReaderRoute
    let health: HealthRoute
    /// The share sheet's end (`ShareRoute`, `PairRoute`, `WebAppRoute`); nil when not configured.
    var sharing: Sharing?
    /// `/media/…`, `/feed/…` and `/library` (`LibraryRoutes`); nil when sharing is off.
    var library: LibraryRoutes?

    struct Sharing: Sendable {
        let share: ShareRoute
        let pair: PairRoute
        let web: WebAppRoute
    }

    func respond(to request: HTTPRequest) throws -> HTTPResponse {
        switch request.path {
        case "/save": return try save.respond(to: request)
        case "/healthz": return try health.respond(to: request)
        default:
            // A reader id first: no other route's path is `/` and a UUID.
            if UUIDPath.id(fromPath: request.path) != nil { return try reader.respond(to: request) }
            if let route = sharingRoute(request.path) { return try route.respond(to: request) }
            if let route = library?.route(request.path) { return try route.respond(to: request) }
            return try reader.respond(to: request)     // `/<uuid>`, else 404
        }
    }

    /// Saves answer once committed, shares once run; every other route answers at once.
    func respond(to request: HTTPRequest, reply: @escaping @Sendable (Result<HTTPResponse, any Error>) -> Void) {
        if request.path == "/save" { return save.respond(to: request, reply: reply) }
        if request.path == "/share", let share = sharing?.share { return share.respond(to: request, reply: reply) }
        reply(Result { try respond(to: request) })
    }

    /// The sharing route for a path, when sharing is on.
    private func sharingRoute(_ path: String) -> (any HTTPResponder)? {
        guard let sharing else { return nil }
        if path == "/share" { return sharing.share }
        if path == "/pair" { return sharing.pair }
        return WebAppRoute.paths.contains(path) ? sharing.web : nil
    }
}

/// The CORS headers `/save` sends, so a browser page may POST to it.
enum CORS {
    static let allowOrigin = ("Access-Control-Allow-Origin", "*")
    static let preflight: [(name: String, value: String)] = [
        allowOrigin,
        ("Access-Control-Allow-Methods", "POST, OPTIONS"),
        ("Access-Control-Allow-Headers", "Content-Type, Authorization"),
        ("Access-Control-Max-Age", "86400"),
        ("Allow", "POST, OPTIONS"),
    ]
}
