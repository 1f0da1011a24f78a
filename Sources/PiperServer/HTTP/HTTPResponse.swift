import Foundation

/// One HTTP response: status, headers in order, body bytes.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// Who made the request, for the access log (never sent).
    public var device: String?
    /// A file sent as the body instead of `body`, without copying it through memory
    /// (libmicrohttpd's file-descriptor responses).
    public var file: ResponseFile?
    /// Set when this very response is sent again and again (see `ReusableResponse`).
    public var reusable: ReusableResponse?

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? {
        headers.first { Self.sameName($0.name, name) }?.value
    }

    /// Header names compare case-insensitively; ASCII names (all real ones) byte by byte.
    static func sameName(_ a: String, _ b: String) -> Bool {
        let x = a.utf8, y = b.utf8
        guard x.allSatisfy({ $0 < 0x80 }), y.allSatisfy({ $0 < 0x80 }) else {
            return a.caseInsensitiveCompare(b) == .orderedSame
        }
        guard x.count == y.count else { return false }
        func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        return zip(x, y).allSatisfy { lower($0) == lower($1) }
    }

    /// A JSON body from a string-keyed object (keys sorted, slashes unescaped).
    public static func json(_ status: Int, _ object: [String: String], headers: [(name: String, value: String)] = []) -> HTTPResponse {
        let body = JSONText.object(object) ?? encodedWithFoundation(object)
        return HTTPResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8")] + headers, body: body)
    }

    private static func encodedWithFoundation(_ object: [String: String]) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(object)).map { Array($0) } ?? Array(#"{"error":"Internal server error"}"#.utf8)
    }
}
