/// Dispatches by path: `/save`, `/healthz`, `/<uuid>`; anything else is a 404.
/// Each route answers its own wrong methods with 405 and an `Allow` header.
struct Router: HTTPResponder {
    let save: SaveRoute
    let reader: ReaderRoute
    let health: HealthRoute

    func respond(to request: HTTPRequest) throws -> HTTPResponse {
        switch request.path {
        case "/save": return try save.respond(to: request)
        case "/healthz": return try health.respond(to: request)
        default: return try reader.respond(to: request)     // `/<uuid>`, else 404
        }
    }

    /// Saves answer once committed; every other route answers at once.
    func respond(to request: HTTPRequest, reply: @escaping @Sendable (Result<HTTPResponse, any Error>) -> Void) {
        guard request.path == "/save" else { return reply(Result { try respond(to: request) }) }
        save.respond(to: request, reply: reply)
    }
}

/// The CORS headers `/save` sends, so a browser page may POST to it.
enum CORS {
    static let allowOrigin = ("Access-Control-Allow-Origin", "*")
    static let preflight: [(name: String, value: String)] = [
        allowOrigin,
        ("Access-Control-Allow-Methods", "POST, OPTIONS"),
        ("Access-Control-Allow-Headers", "Content-Type"),
        ("Access-Control-Max-Age", "86400"),
        ("Allow", "POST, OPTIONS"),
    ]
}
