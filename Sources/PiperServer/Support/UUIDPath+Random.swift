#if canImport(Glibc)
import Glibc
#endif

extension UUIDPath {
    /// A fresh random UUID v4 in lowercase, from the system's CSPRNG in one call.
    /// Foundation's `UUID()` opens `/dev/urandom` for each id on Linux, a system call pair this
    /// per-save path does not need.
    static func randomID() -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        fillRandom(&bytes)
        bytes[6] = (bytes[6] & 0x0F) | 0x40     // version 4
        bytes[8] = (bytes[8] & 0x3F) | 0x80     // RFC 4122 variant
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { out.append(UInt8(ascii: "-")) }
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func fillRandom(_ bytes: inout [UInt8]) {
        #if canImport(Glibc)
        bytes.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { arc4random_buf(base, buffer.count) }     // glibc ≥ 2.36: getrandom
        }
        #else
        var generator = SystemRandomNumberGenerator()
        for i in bytes.indices { bytes[i] = generator.next() }
        #endif
    }
}
