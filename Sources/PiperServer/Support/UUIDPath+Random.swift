extension UUIDPath {
    /// A fresh random UUID v4 in lowercase, from the system's CSPRNG (`getrandom` on Linux).
    /// Foundation's `UUID()` opens `/dev/urandom` for each id on Linux, a system call pair this
    /// per-save path does not need.
    static func randomID() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            bytes[i] = UInt8(truncatingIfNeeded: high >> (56 - 8 * i))
            bytes[8 + i] = UInt8(truncatingIfNeeded: low >> (56 - 8 * i))
        }
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
}
