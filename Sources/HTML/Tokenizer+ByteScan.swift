import Foundation

// Finding the next interesting byte eight bytes at a time (SWAR, "SIMD within a register"):
// for a word x, a byte equal to b makes a zero byte in x ^ (b * 0x0101…01), and
// (y - 0x01…01) & ~y & 0x80…80 sets the high bit of the lowest zero byte of y (higher bits
// may be false positives from the borrow, so only the lowest match is used).

enum ByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    @inline(__always) private static func zeroBytes(_ y: UInt64) -> UInt64 {
        (y &- ones) & ~y & highs
    }

    /// Index of the first byte in p[i..<end] equal to a, b or c, or end.
    @inline(__always)
    static func first(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ a: UInt8, _ b: UInt8, _ c: UInt8) -> Int {
        var i = start
        let pa = UInt64(a) &* ones, pb = UInt64(b) &* ones, pc = UInt64(c) &* ones
        let raw = UnsafeRawPointer(p)
        while i &+ 8 <= end {
            let x = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            let m = zeroBytes(x ^ pa) | zeroBytes(x ^ pb) | zeroBytes(x ^ pc)
            if m != 0 { return i &+ (m.trailingZeroBitCount >> 3) }
            i &+= 8
        }
        while i < end {
            let x = p[i]
            if x == a || x == b || x == c { return i }
            i &+= 1
        }
        return end
    }

    /// Index of the first byte in p[start..<end] equal to a or to U+0000, or end; for the long
    /// runs of script and style text: glibc's vectorized `memchr` for a, then for NUL before it.
    static func firstOrNull(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ a: UInt8) -> Int {
        guard start < end else { return end }
        var limit = end
        if a != 0, let hit = memchr(p + start, Int32(a), end - start) {
            limit = UnsafeRawPointer(hit) - UnsafeRawPointer(p)
        }
        guard limit > start, let null = memchr(p + start, 0, limit - start) else { return limit }
        return UnsafeRawPointer(null) - UnsafeRawPointer(p)
    }
}
