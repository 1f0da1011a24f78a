/// The one central protocol of the server: a request in, a response out. The router, the
/// middleware and every route handler reduce to it. Called on the HTTP server's worker threads,
/// so implementations are `Sendable` and must not block for long.
public protocol HTTPResponder: Sendable {
    func respond(to request: HTTPRequest) throws -> HTTPResponse
    /// The same answer, delivered through `reply` exactly once, now or later from another thread
    /// (a save replies once its commit is durable, without holding a thread meanwhile). The
    /// default replies at once with `respond(to:)`.
    func respond(to request: HTTPRequest, reply: @escaping @Sendable (Result<HTTPResponse, any Error>) -> Void)
}

extension HTTPResponder {
    public func respond(to request: HTTPRequest, reply: @escaping @Sendable (Result<HTTPResponse, any Error>) -> Void) {
        reply(Result { try respond(to: request) })
    }
}

/// An error that knows its HTTP status and the message the client sees (`{"error": message}`).
/// Any other error that escapes a responder becomes a 500 with a generic message.
public struct HTTPError: Error, CustomStringConvertible, Sendable, Equatable {
    public let status: Int
    public let message: String
    public let headers: [Header]

    public struct Header: Sendable, Equatable {
        public let name: String
        public let value: String
    }

    public init(_ status: Int, _ message: String, headers: [(String, String)] = []) {
        self.status = status
        self.message = message
        self.headers = headers.map { Header(name: $0.0, value: $0.1) }
    }

    public var description: String { message }

    public static let notFound = HTTPError(404, "Not found")
    public static let internalError = HTTPError(500, "Internal server error")

    public static func methodNotAllowed(_ allowed: [String]) -> HTTPError {
        HTTPError(405, "Method not allowed", headers: [("Allow", allowed.joined(separator: ", "))])
    }

    public static func payloadTooLarge(limit: Int) -> HTTPError {
        HTTPError(413, "Request body is larger than the limit of \(limit) bytes")
    }
}

extension HTTPResponse {
    static func error(_ error: HTTPError) -> HTTPResponse {
        json(error.status, ["error": error.message], headers: error.headers.map { ($0.name, $0.value) })
    }
}

/// Turns thrown errors into responses: an `HTTPError` keeps its status and message; anything
/// else is a 500 whose body reveals nothing internal. Adds headers every response carries.
public struct ErrorMiddleware: HTTPResponder {
    let next: any HTTPResponder

    public init(_ next: any HTTPResponder) { self.next = next }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        Self.finished(Result { try next.respond(to: request) })
    }

    /// `next`'s answer, delivered later if `next` takes its time, with errors already turned
    /// into responses.
    public func respond(to request: HTTPRequest, answer: @escaping @Sendable (HTTPResponse) -> Void) {
        next.respond(to: request) { result in answer(Self.finished(result)) }
    }

    static func finished(_ result: Result<HTTPResponse, any Error>) -> HTTPResponse {
        var response: HTTPResponse
        switch result {
        case .success(let answer): response = answer
        case .failure(let error as HTTPError): response = .error(error)
        case .failure: response = .error(.internalError)
        }
        // Spelled as the routes spell it, the header is found without a case-insensitive scan.
        if !response.headers.contains(where: { $0.name == "X-Content-Type-Options" }),
           response.header("X-Content-Type-Options") == nil {
            response.headers.append(("X-Content-Type-Options", "nosniff"))
            response.reusable = nil     // no longer the response its object was built from
        }
        return response
    }
}
