/// Dispatches by path: `/save`, `/healthz`, `/<uuid>`, and when sharing is on `/share`,
/// `/pair` and the web app's pages; anything else is a 404.
/// Each route answers its own wrong methods with 405 and an `Allow` header.
struct Router: HTTPResponder {
    let save: SaveRoute
    let reader: ReaderRoute
    let health: HealthRoute
    /// The share sheet's end (`ShareRoute`, `PairRoute`, `WebAppRoute`); nil when not configured.
    var sharing: Sharing?

    struct Sharing: Sendable {
        let share: ShareRoute
        let pair: PairRoute
        let web: WebAppRoute
    }

    func respond(to request: HTTPRequest) throws -> HTTPResponse {
        switch request.path {
        case "/save": return try save.respond(to: request)
        case "/healthz": return try health.respond(to: request)
        case "/share" where sharing != nil: return try sharing!.share.respond(to: request)
        case "/pair" where sharing != nil: return try sharing!.pair.respond(to: request)
        case let path where sharing != nil && WebAppRoute.paths.contains(path): return try sharing!.web.respond(to: request)
        default: return try reader.respond(to: request)     // `/<uuid>`, else 404
        }
    }

    /// Saves answer once committed, shares once run; every other route answers at once.
    func respond(to request: HTTPRequest, reply: @escaping @Sendable (Result<HTTPResponse, any Error>) -> Void) {
        switch request.path {
        case "/save": save.respond(to: request, reply: reply)
        case "/share" where sharing != nil: sharing!.share.respond(to: request, reply: reply)
        default: reply(Result { try respond(to: request) })
        }
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
