import Foundation

/// One HTTP response: status, headers in order, body bytes.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    public mutating func setHeader(_ name: String, _ value: String) {
        headers.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
        headers.append((name, value))
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
