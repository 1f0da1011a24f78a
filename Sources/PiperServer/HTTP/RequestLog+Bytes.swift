import Foundation

extension RequestLog {
    /// The line `record` writes, built as bytes: the same text as its `String` form, for the
    /// common request (no device, a plain path of at most 200 bytes that is not a feed's);
    /// nil for any other, which goes the `String` way.
    static func line(method: String, path: String, status: Int, milliseconds: Double, client: String, now: Date) -> [UInt8]? {
        let pathBytes = path.utf8
        guard pathBytes.count <= 200, !path.hasPrefix("/feed/"),
              !pathBytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(64 + client.utf8.count + method.utf8.count + pathBytes.count)
        appendTimestamp(now, to: &out)
        out.append(0x20)
        if client.isEmpty { out.append(UInt8(ascii: "-")) } else { out.append(contentsOf: client.utf8) }
        out.append(contentsOf: " - ".utf8)
        out.append(contentsOf: method.utf8)
        out.append(0x20)
        out.append(contentsOf: pathBytes)
        out.append(0x20)
        appendDecimal(status, to: &out)
        out.append(0x20)
        let hundredths = Int((max(0, milliseconds) * 100).rounded())
        appendDecimal(hundredths / 100, to: &out)
        out.append(UInt8(ascii: "."))
        appendDecimal(hundredths % 100, width: 2, to: &out)
        out.append(contentsOf: "ms".utf8)
        return out
    }

    /// `2025-01-31T12:34:56Z`, as `timestamp` writes it.
    private static func appendTimestamp(_ date: Date, to out: inout [UInt8]) {
        let (year, month, day, hour, minute, second) = UTCTime.parts(date)
        appendDecimal(year, to: &out)
        out.append(UInt8(ascii: "-"))
        appendDecimal(month, width: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        appendDecimal(day, width: 2, to: &out)
        out.append(UInt8(ascii: "T"))
        appendDecimal(hour, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendDecimal(minute, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendDecimal(second, width: 2, to: &out)
        out.append(UInt8(ascii: "Z"))
    }

    /// `value` in decimal, zero-padded to `width` digits.
    private static func appendDecimal(_ value: Int, width: Int = 1, to out: inout [UInt8]) {
        if value < 0 {
            out.append(UInt8(ascii: "-"))
            return appendDecimal(-value, width: width, to: &out)
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0 && count < 20
            while count < min(width, 20) {
                buffer[count] = UInt8(ascii: "0")
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) { out.append(buffer[index]) }
        }
    }
}
