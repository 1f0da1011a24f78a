/// A request's method, typed. The methods Piper's routes answer have names; any other method
/// (`PUT`, `DELETE`, a made-up one) is kept as it came, so the route table answers it 405 with
/// `Allow` (libmicrohttpd itself answers what is not HTTP at all).
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    public static let get: HTTPMethod = "GET"
    public static let head: HTTPMethod = "HEAD"
    public static let post: HTTPMethod = "POST"
    public static let options: HTTPMethod = "OPTIONS"

    public var description: String { rawValue }
}

/// What the HTTP server asks about a request from its head alone, before it reads the body:
/// the route table answers from what each route declares (`Endpoint.body`, `answersLater`).
public protocol RequestPlanning: Sendable {
    /// The body is streamed to a `BodyStream` (an upload) instead of collected in memory.
    func streamsBody(_ method: HTTPMethod, path: String) -> Bool
    /// The answer may come later from another thread: the connection is suspended meanwhile,
    /// so a waiting save or share holds no worker thread.
    func answersLater(_ method: HTTPMethod, path: String) -> Bool
}
