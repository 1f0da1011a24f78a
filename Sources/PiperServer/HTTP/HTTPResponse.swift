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

extension HTTPResponse {
    /// The headers of an answer whose bytes came from outside Piper (a library file, its cover,
    /// an upload, a feed built from tags): the browser must not guess another type than the one
    /// sent (`nosniff`), and were it ever to render the bytes as a document, that document may
    /// load nothing and runs in a sandbox: no script, no same-origin access, no cookie use.
    static let foreignBytesHeaders: [(name: String, value: String)] = [
        ("X-Content-Type-Options", "nosniff"),
        ("Content-Security-Policy", "default-src 'none'; sandbox"),
    ]

    /// Adds `foreignBytesHeaders` (replacing a CSP the answer had).
    mutating func markForeignBytes() {
        headers.removeAll { Self.sameName($0.name, "Content-Security-Policy") || Self.sameName($0.name, "X-Content-Type-Options") }
        headers += Self.foreignBytesHeaders
    }
}
