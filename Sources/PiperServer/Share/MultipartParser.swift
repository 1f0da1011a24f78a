import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Receives a multipart body's parts as the parser finds them.
protocol MultipartSink: AnyObject {
    /// A part begins: its form name, its file name (nil for plain fields) and Content-Type.
    func partBegan(name: String, fileName: String?, contentType: String?) throws
    /// More of the current part's bytes (any size, in order).
    func partData(_ bytes: ArraySlice<UInt8>) throws
    func partEnded() throws
}

/// `multipart/form-data` (RFC 7578) as a push parser: bytes go in by chunks of any size, parts
/// come out through the sink, so a file part streams to disk and is never held whole.
/// A pure value apart from the sink; one parser per body.
struct MultipartParser {
    enum State { case preamble, afterDelimiter, headers, body, done }

    private let delimiter: [UInt8]
    private var buffer: [UInt8]
    private var start = 0
    private(set) var state = State.preamble
    static let headerLimit = 16 * 1024

    /// The boundary from a Content-Type such as `multipart/form-data; boundary=xyz`.
    static func boundary(of contentType: String?) -> String? {
        guard let contentType, contentType.lowercased().hasPrefix("multipart/form-data") else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "boundary" {
                let value = pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") && pair[1].count >= 2 ? String(pair[1].dropFirst().dropLast()) : pair[1]
                return value.isEmpty || value.count > 200 ? nil : value
            }
        }
        return nil
    }

    init(boundary: String) {
        delimiter = Array("\r\n--\(boundary)".utf8)
        buffer = Array("\r\n".utf8)   // the first delimiter has no CRLF before it
    }

    var isComplete: Bool { state == .done }

    /// Feeds the next bytes of the body.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, into sink: any MultipartSink) throws {
        buffer.append(contentsOf: bytes)
        try run(sink)
        if start > 1 << 20 || start * 2 > buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
    }

    /// Called after the last bytes: a body that did not reach its closing delimiter is malformed.
    func finish() throws {
        guard state == .done else { throw HTTPError(400, "The multipart body is malformed (it ends before its closing boundary)") }
    }

    private mutating func run(_ sink: any MultipartSink) throws {
        while true {
            switch state {
            case .preamble:
                guard let hit = find(delimiter) else {
                    start = max(start, buffer.count - delimiter.count)
                    return
                }
                start = hit + delimiter.count
                state = .afterDelimiter
            case .afterDelimiter:
                guard buffer.count - start >= 2 else { return }
                if buffer[start] == 0x2D && buffer[start + 1] == 0x2D {
                    state = .done
                    return
                }
                // Transport padding (spaces, tabs) may follow a delimiter before its CRLF.
                var index = start
                while index < buffer.count, buffer[index] == 0x20 || buffer[index] == 0x09 { index += 1 }
                guard buffer.count - index >= 2 else { return }
                guard buffer[index] == 0x0D && buffer[index + 1] == 0x0A else {
                    throw HTTPError(400, "The multipart body is malformed (no line break after a boundary)")
                }
                start = index + 2
                state = .headers
            case .headers:
                guard let end = find([0x0D, 0x0A, 0x0D, 0x0A]) else {
                    if buffer.count - start > Self.headerLimit { throw HTTPError(400, "A multipart part's headers are too long") }
                    return
                }
                let text = String(decoding: buffer[start..<end], as: UTF8.self)
                start = end + 4
                try begin(text, sink)
                state = .body
            case .body:
                if let hit = find(delimiter) {
                    if hit > start { try sink.partData(buffer[start..<hit]) }
                    try sink.partEnded()
                    start = hit + delimiter.count
                    state = .afterDelimiter
                } else {
                    let safe = buffer.count - (delimiter.count - 1)
                    if safe > start {
                        try sink.partData(buffer[start..<safe])
                        start = safe
                    }
                    return
                }
            case .done:
                return
            }
        }
    }

    private func begin(_ headers: String, _ sink: any MultipartSink) throws {
        var name: String?, fileName: String?, contentType: String?
        for line in headers.split(separator: "\r\n") {
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let field = pair[0].trimmingCharacters(in: .whitespaces).lowercased()
            let value = pair[1].trimmingCharacters(in: .whitespaces)
            if field == "content-type" { contentType = value }
            if field == "content-disposition" {
                name = Self.parameter("name", in: value)
                fileName = Self.parameter("filename", in: value)
            }
        }
        guard let name else { throw HTTPError(400, "The multipart body is malformed (a part has no name)") }
        try sink.partBegan(name: name, fileName: fileName, contentType: contentType)
    }

    /// A `name="value"` parameter of a Content-Disposition header.
    static func parameter(_ wanted: String, in header: String) -> String? {
        var rest = Substring(header)
        while let semicolon = rest.firstIndex(of: ";") {
            rest = rest[rest.index(after: semicolon)...]
            let trimmed = rest.drop(while: { $0 == " " })
            guard let equals = trimmed.firstIndex(of: "=") else { continue }
            let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            var value = trimmed[trimmed.index(after: equals)...]
            if value.hasPrefix("\"") {
                value = value.dropFirst()
                guard let close = value.firstIndex(of: "\"") else { return nil }
                if key == wanted { return String(value[..<close]) }
                rest = value[value.index(after: close)...]
            } else {
                let end = value.firstIndex(of: ";") ?? value.endIndex
                if key == wanted { return value[..<end].trimmingCharacters(in: .whitespaces) }
                rest = value[end...]
            }
        }
        return nil
    }

    /// The first index at or after `start` where `needle` begins.
    private func find(_ needle: [UInt8]) -> Int? {
        guard buffer.count - start >= needle.count, let first = needle.first else { return nil }
        return buffer.withUnsafeBufferPointer { all -> Int? in
            guard let base = all.baseAddress else { return nil }
            var index = start
            let last = all.count - needle.count
            while index <= last {
                // memchr finds the candidate first byte at memory speed; then compare the rest.
                guard let hit = memchr(base + index, Int32(first), last - index + 1) else { return nil }
                index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if memcmp(base + index + 1, needle.withUnsafeBufferPointer { $0.baseAddress! + 1 }, needle.count - 1) == 0 { return index }
                index += 1
            }
            return nil
        }
    }
}
