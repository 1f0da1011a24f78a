/// Reads the usual save body, a flat JSON object whose values are all strings, straight from
/// its UTF-8 bytes. Anything else (numbers, nesting, null, duplicate keys, lone surrogates,
/// invalid UTF-8, any syntax error) is declined with nil, and the caller falls back to
/// `JSONSerialization`, which then decides. So whatever this accepts, it reads exactly as
/// `JSONSerialization` would.
enum FlatJSON {
    static func stringObject(_ body: [UInt8]) -> [String: String]? {
        body.withUnsafeBufferPointer { bytes in
            var reader = Reader(bytes: bytes)
            return reader.object()
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0

        mutating func object() -> [String: String]? {
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return nil }
            var result: [String: String] = [:]
            skipSpace()
            if !take(UInt8(ascii: "}")) {
                while true {
                    skipSpace()
                    guard let key = string() else { return nil }
                    skipSpace()
                    guard take(UInt8(ascii: ":")) else { return nil }
                    skipSpace()
                    guard let value = string(), result.updateValue(value, forKey: key) == nil else { return nil }
                    skipSpace()
                    if take(UInt8(ascii: ",")) { continue }
                    guard take(UInt8(ascii: "}")) else { return nil }
                    break
                }
            }
            skipSpace()
            return i == bytes.count ? result : nil
        }

        private mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard i < bytes.count, bytes[i] == byte else { return false }
            i += 1
            return true
        }

        /// A string literal, or nil (declined).
        private mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = i
            // Fast case: no escapes before the closing quote.
            while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\") {
                if bytes[i] < 0x20 { return nil }
                i += 1
            }
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: "\"") {
                i += 1
                return String(validating: UnsafeBufferPointer(rebasing: bytes[start..<(i - 1)]), as: UTF8.self)
            }
            var out = Array(bytes[start..<i])
            while i < bytes.count {
                let byte = bytes[i]
                i += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(validating: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard escape(into: &out) else { return nil }
                case ..<0x20:
                    return nil
                default:
                    out.append(byte)
                }
            }
            return nil
        }

        private mutating func escape(into out: inout [UInt8]) -> Bool {
            guard i < bytes.count else { return false }
            let byte = bytes[i]
            i += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(byte)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard let unit = hex4() else { return false }
                var value = UInt32(unit)
                if (0xD800...0xDBFF).contains(unit) {
                    guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(),
                          (0xDC00...0xDFFF).contains(low) else { return false }
                    value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(unit) {
                    return false
                }
                guard let scalar = Unicode.Scalar(value) else { return false }
                UTF8.encode(scalar) { out.append($0) }
            default:
                return false
            }
            return true
        }

        private mutating func hex4() -> UInt16? {
            guard i + 4 <= bytes.count else { return nil }
            var value: UInt16 = 0
            for _ in 0..<4 {
                let byte = bytes[i]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt16(digit)
                i += 1
            }
            return value
        }
    }
}
