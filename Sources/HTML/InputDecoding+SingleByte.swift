import Foundation

// Single-byte legacy encodings through 128-entry tables (0x80–0xFF → a scalar), built once per
// encoding from Foundation's decoder, one byte at a time. A table decodes any split of the
// input the same way (the streaming parser relies on that), never fails as a whole (a byte
// Foundation cannot map becomes U+FFFD, as in the Encoding Standard's decoders), and gives the
// detector the scalars it scores.

extension InputDecoder {
    /// The encodings `decode(_:as:)` decodes through `singleByteTable`.
    static let singleByteEncodings: Set<String> = [
        "ibm866", "iso-8859-2", "iso-8859-3", "iso-8859-4", "iso-8859-5", "iso-8859-6", "iso-8859-7",
        "iso-8859-8", "iso-8859-8-i", "iso-8859-10", "iso-8859-13", "iso-8859-14", "iso-8859-15",
        "iso-8859-16", "koi8-r", "koi8-u", "macintosh", "windows-874", "windows-1250", "windows-1251",
        "windows-1253", "windows-1254", "windows-1255", "windows-1256", "windows-1257", "windows-1258",
        "x-mac-cyrillic",
    ]

    /// The scalar of each byte 0x80–0xFF in `encoding` (U+FFFD where Foundation has none), or nil
    /// for an encoding that is not single-byte.
    static func singleByteTable(_ encoding: String) -> [UInt32]? {
        if encoding == "windows-1252" { return windows1252Table }
        guard singleByteEncodings.contains(encoding) else { return nil }
        return SingleByteTables.shared.table(encoding)
    }

    /// windows-1252's upper half, written out here (no Foundation call).
    static let windows1252Table: [UInt32] = (0x80...0xFF).map { b in
        b < 0xA0 ? windows1252C1[b - 0x80] : UInt32(b)
    }

    /// Decodes with a table from `singleByteTable`.
    static func decodeSingleByte(_ bytes: [UInt8], table: [UInt32]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 4)
        for b in bytes {
            if b < 0x80 { out.append(b) } else { TokenizerCore.appendUTF8(table[Int(b) - 0x80], to: &out) }
        }
        return out
    }
}

/// The tables built so far. `@unchecked Sendable`: `lock` guards `tables`.
private final class SingleByteTables: @unchecked Sendable {
    static let shared = SingleByteTables()
    private let lock = NSLock()
    private var tables: [String: [UInt32]] = [:]

    func table(_ encoding: String) -> [UInt32] {
        lock.lock()
        defer { lock.unlock() }
        if let table = tables[encoding] { return table }
        var table = [UInt32](repeating: 0xFFFD, count: 128)
        if let raw = InputDecoder.foundationEncodings[encoding] {
            let foundation = String.Encoding(rawValue: raw)
            for b in 0x80...0xFF {
                guard let s = String(data: Data([UInt8(b)]), encoding: foundation) else { continue }
                let scalars = Array(s.unicodeScalars)
                if scalars.count == 1 { table[b - 0x80] = scalars[0].value }
            }
        }
        tables[encoding] = table
        return table
    }
}
