/// The one central protocol of the server: a request in, a response out. The router, the
/// middleware and every route handler reduce to it. Called on the HTTP server's worker threads,
/// so implementations are `Sendable` and must not block for long.
public protocol HTTPResponder: Sendable {
    func respond(to request: HTTPRequest) throws -> HTTPResponse
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
        var response: HTTPResponse
        do {
            response = try next.respond(to: request)
        } catch let error as HTTPError {
            response = .error(error)
        } catch {
            response = .error(.internalError)
        }
        if response.header("X-Content-Type-Options") == nil {
            response.headers.append(("X-Content-Type-Options", "nosniff"))
        }
        return response
    }
}
