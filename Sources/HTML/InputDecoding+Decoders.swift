// The decoders written here (UTF-8 repair, windows-1252, x-user-defined, UTF-16) and the
// Foundation encodings used for the other legacy ones.

extension InputDecoder {
    /// NSStringEncoding values (0x8000_0000 | CFStringEncoding) for the legacy encodings.
    /// Checked on Linux: these decode through Foundation (EUC-JP does not: see +EUCJP).
    static let foundationEncodings: [String: UInt] = {
        let cf: [String: UInt] = [
            "ibm866": 0x041B, "iso-8859-2": 0x0202, "iso-8859-3": 0x0203, "iso-8859-4": 0x0204,
            "iso-8859-5": 0x0205, "iso-8859-6": 0x0206, "iso-8859-7": 0x0207, "iso-8859-8": 0x0208,
            "iso-8859-8-i": 0x0208, "iso-8859-10": 0x020A, "iso-8859-13": 0x020D,
            "iso-8859-14": 0x020E, "iso-8859-15": 0x020F, "iso-8859-16": 0x0210,
            "koi8-r": 0x0A02, "koi8-u": 0x0A08, "macintosh": 0x0000, "windows-874": 0x041D,
            "windows-1250": 0x0501, "windows-1251": 0x0502, "windows-1253": 0x0503,
            "windows-1254": 0x0504, "windows-1255": 0x0505, "windows-1256": 0x0506,
            "windows-1257": 0x0507, "windows-1258": 0x0508, "x-mac-cyrillic": 0x0007,
            "gbk": 0x0632, "gb18030": 0x0632, "big5": 0x0A03,
            "iso-2022-jp": 0x0820, "shift_jis": 0x0A01, "euc-kr": 0x0940,
        ]
        return cf.mapValues { 0x8000_0000 | $0 }
    }()

    /// The bytes if they are valid UTF-8, else a copy with each malformed sequence replaced.
    static func validUTF8(_ bytes: [UInt8]) -> [UInt8] {
        let valid = bytes.withUnsafeBufferPointer { buf -> Bool in
            guard let p = buf.baseAddress else { return true }
            return isValidUTF8(p, buf.count)
        }
        return valid ? bytes : Array(String(decoding: bytes, as: UTF8.self).utf8)
    }

    /// UTF-8 validation (Unicode Table 3-7): ASCII 32 or eight bytes at a time, multi-byte
    /// sequences checked for overlongs, surrogates and values above U+10FFFF. Reads only
    /// `p[0..<n]`.
    static func isValidUTF8(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        let raw = UnsafeRawPointer(p)
        var i = 0
        while i < n {
            while i + 32 <= n {
                let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) | raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)
                    | raw.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self) | raw.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)
                if word & 0x8080_8080_8080_8080 != 0 { break }
                i += 32
            }
            // The run of ASCII may end exactly at `n`: nothing is left to read (reading `p[n]`
            // would look at whatever memory follows the buffer).
            if i >= n { break }
            if i + 8 <= n, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
                continue
            }
            let b = p[i]
            if b < 0x80 { i += 1; continue }
            func cont(_ k: Int, _ lo: UInt8 = 0x80, _ hi: UInt8 = 0xBF) -> Bool {
                i + k < n && p[i + k] >= lo && p[i + k] <= hi
            }
            switch b {
            case 0xC2...0xDF:
                guard cont(1) else { return false }
                i += 2
            case 0xE0...0xEF:
                let lo: UInt8 = b == 0xE0 ? 0xA0 : 0x80, hi: UInt8 = b == 0xED ? 0x9F : 0xBF
                guard cont(1, lo, hi), cont(2) else { return false }
                i += 3
            case 0xF0...0xF4:
                let lo: UInt8 = b == 0xF0 ? 0x90 : 0x80, hi: UInt8 = b == 0xF4 ? 0x8F : 0xBF
                guard cont(1, lo, hi), cont(2), cont(3) else { return false }
                i += 4
            default:
                return false
            }
        }
        return true
    }

    /// windows-1252 (what "latin1", "ascii" and "iso-8859-1" mean on the web).
    static func decodeWindows1252(_ bytes: [UInt8]) -> [UInt8] {
        // Two passes over raw buffers: the output's exact size first, then the bytes, without
        // the per-byte uniqueness and capacity checks of `append`.
        let c1 = windows1252C1
        return bytes.withUnsafeBufferPointer { src in
            var size = src.count
            for b in src where b >= 0x80 {
                size += utf8Length(b < 0xA0 ? c1[Int(b - 0x80)] : UInt32(b)) - 1
            }
            if size == src.count { return bytes }  // ASCII: the bytes are their own UTF-8
            return [UInt8](unsafeUninitializedCapacity: size) { out, written in
                var o = 0
                for b in src {
                    if b < 0x80 {
                        out[o] = b
                        o += 1
                        continue
                    }
                    let v = b < 0xA0 ? c1[Int(b - 0x80)] : UInt32(b)
                    if v < 0x800 {
                        out[o] = UInt8(0xC0 | (v >> 6))
                        out[o + 1] = UInt8(0x80 | (v & 0x3F))
                        o += 2
                    } else {
                        out[o] = UInt8(0xE0 | (v >> 12))
                        out[o + 1] = UInt8(0x80 | ((v >> 6) & 0x3F))
                        out[o + 2] = UInt8(0x80 | (v & 0x3F))
                        o += 3
                    }
                }
                written = o
            }
        }
    }

    /// UTF-8 length of a scalar below U+10000 that is not ASCII (windows-1252's range).
    @inline(__always) private static func utf8Length(_ v: UInt32) -> Int { v < 0x800 ? 2 : 3 }

    /// windows-1252's 0x80–0x9F (unassigned bytes map to the C1 control of the same value).
    static let windows1252C1: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]

    /// x-user-defined: ASCII, and 0x80–0xFF to U+F780–U+F7FF.
    static func decodeUserDefined(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            if b < 0x80 { out.append(b) } else { TokenizerCore.appendUTF8(0xF780 + UInt32(b - 0x80), to: &out) }
        }
        return out
    }

    static func decodeUTF16(_ bytes: [UInt8], bigEndian: Bool) -> [UInt8] {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = 0
        while i + 1 < bytes.count {
            let a = UInt16(bytes[i]), b = UInt16(bytes[i + 1])
            units.append(bigEndian ? (a << 8 | b) : (b << 8 | a))
            i += 2
        }
        var out = Array(String(decoding: units, as: UTF16.self).utf8)
        if i < bytes.count { out += [0xEF, 0xBF, 0xBD] }  // a trailing odd byte
        return out
    }
}
