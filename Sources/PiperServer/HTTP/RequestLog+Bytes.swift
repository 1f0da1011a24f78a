import Foundation

extension RequestLog {
    /// The longest line `withLine` builds; longer ones go the `String` way.
    static let lineCapacity = 384

    /// Calls `body` with the line `record` writes, built as bytes on the stack: the same text
    /// as its `String` form, for the common request (no device, a plain path of at most 200
    /// bytes that is not a feed's, a short method and client). False, without calling `body`,
    /// for any other, which goes the `String` way.
    static func withLine(method: String, path: String, status: Int, milliseconds: Double, client: String, now: Date,
                         _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        let pathBytes = path.utf8
        guard pathBytes.count <= 200, method.utf8.count <= 16, client.utf8.count <= 64, !path.hasPrefix("/feed/"),
              !hasControlBytes(pathBytes) else { return false }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: lineCapacity) { buffer in
            var out = LineWriter(buffer: buffer)
            out.timestamp(now)
            out.byte(0x20)
            if client.isEmpty { out.byte(UInt8(ascii: "-")) } else { out.bytes(client.utf8) }
            out.bytes(" - ".utf8)
            out.bytes(method.utf8)
            out.byte(0x20)
            out.bytes(pathBytes)
            out.byte(0x20)
            out.decimal(status)
            out.byte(0x20)
            let hundredths = Int((max(0, milliseconds) * 100).rounded())
            out.decimal(hundredths / 100)
            out.byte(UInt8(ascii: "."))
            out.decimal(hundredths % 100, width: 2)
            out.bytes("ms".utf8)
            body(UnsafeBufferPointer(rebasing: buffer[..<out.count]))
        }
        return true
    }

    /// Whether `bytes` hold a control character (which the `String` way replaces).
    private static func hasControlBytes(_ bytes: String.UTF8View) -> Bool {
        bytes.withContiguousStorageIfAvailable { $0.contains { $0 < 0x20 || $0 == 0x7F } }
            ?? bytes.contains { $0 < 0x20 || $0 == 0x7F }
    }

    /// The line as an array (for tests and callers that keep it).
    static func line(method: String, path: String, status: Int, milliseconds: Double, client: String, now: Date) -> [UInt8]? {
        var line: [UInt8]?
        let built = withLine(method: method, path: path, status: status, milliseconds: milliseconds, client: client, now: now) {
            line = Array($0)
        }
        return built ? line : nil
    }
}

/// Appends bytes to a buffer that `RequestLog.withLine` sized for the longest line it builds.
private struct LineWriter {
    let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    init(buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

    mutating func byte(_ value: UInt8) {
        guard count < buffer.count else { return }
        buffer[count] = value
        count += 1
    }

    mutating func bytes(_ values: String.UTF8View) {
        if let done: Void = values.withContiguousStorageIfAvailable({ copy($0) }) { return done }
        for value in values { byte(value) }
    }

    private mutating func copy(_ values: UnsafeBufferPointer<UInt8>) {
        let length = min(values.count, buffer.count - count)
        guard length > 0, let source = values.baseAddress, let target = buffer.baseAddress else { return }
        (target + count).update(from: source, count: length)
        count += length
    }

    /// `2025-01-31T12:34:56Z`, as `RequestLog.timestamp` writes it.
    mutating func timestamp(_ date: Date) {
        let (year, month, day, hour, minute, second) = UTCTime.parts(date)
        decimal(year)
        byte(UInt8(ascii: "-"))
        decimal(month, width: 2)
        byte(UInt8(ascii: "-"))
        decimal(day, width: 2)
        byte(UInt8(ascii: "T"))
        decimal(hour, width: 2)
        byte(UInt8(ascii: ":"))
        decimal(minute, width: 2)
        byte(UInt8(ascii: ":"))
        decimal(second, width: 2)
        byte(UInt8(ascii: "Z"))
    }

    /// `value` in decimal, zero-padded to `width` digits (at most 20).
    mutating func decimal(_ value: Int, width: Int = 1) {
        if value < 0 {
            byte(UInt8(ascii: "-"))
            return decimal(value == Int.min ? Int.max : -value, width: width)
        }
        var digits = 1, scale = 1
        while digits < 19, value / scale >= 10 {
            scale *= 10
            digits += 1
        }
        for _ in digits..<max(digits, min(width, 20)) { byte(UInt8(ascii: "0")) }
        var rest = value
        while scale > 0 {
            byte(UInt8(ascii: "0") + UInt8(rest / scale))
            rest %= scale
            scale /= 10
        }
    }
}
