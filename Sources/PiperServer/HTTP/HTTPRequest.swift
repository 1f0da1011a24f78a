/// One HTTP request as the responders see it: already complete (headers and body read).
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path without the query string, e.g. `/save`.
    public var path: String
    /// Header names lowercased.
    public var headers: [String: String]
    public var body: [UInt8]
    /// The peer's numeric address (used for rate limiting only; never logged).
    public var clientAddress: String

    public init(method: String, path: String, headers: [String: String] = [:], body: [UInt8] = [], clientAddress: String = "") {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.clientAddress = clientAddress
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}
