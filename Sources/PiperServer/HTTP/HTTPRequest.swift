/// One HTTP request as the responders see it: already complete (headers and body read).
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    /// The path without the query string, e.g. `/save`.
    public var path: String
    /// Header names lowercased.
    public var headers: [String: String]
    public var body: [UInt8]
    /// The peer's numeric address (rate limits; the access log when it is on).
    public var clientAddress: String
    /// The query string's arguments, decoded (last one wins).
    public var query: [String: String] = [:]
    /// The body, when it streamed somewhere else instead of into `body` (`BodyStream`).
    public var upload: (any BodyStream)?

    public init(method: HTTPMethod, path: String, headers: [String: String] = [:], body: [UInt8] = [], clientAddress: String = "") {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.clientAddress = clientAddress
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}
