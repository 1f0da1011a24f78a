// Literal substring tests on UTF-8 bytes. With Foundation imported, `String.contains(String)`
// is Foundation's `range(of:)`: it compares canonically equivalent forms, bridges to NSString
// and costs thousands of instructions a call. Markup attributes, metadata and CSS are matched
// literally (JavaScript's `includes`), which is these bytes compared.

extension String {
    /// Whether `needle` occurs in this string, byte for byte (JavaScript's `includes`). UTF-8
    /// is self-synchronizing, so a match always starts and ends on character boundaries.
    public func containsBytes(_ needle: String) -> Bool {
        if needle.isEmpty { return true }
        var haystack = self
        var needle = needle
        return haystack.withUTF8 { h in
            needle.withUTF8 { n in String.find(n, in: h) }
        }
    }

    private static func find(_ n: UnsafeBufferPointer<UInt8>, in h: UnsafeBufferPointer<UInt8>) -> Bool {
        let m = n.count
        guard m <= h.count else { return false }
        let first = n[0]
        var i = 0
        let last = h.count - m
        while i <= last {
            if h[i] == first {
                var j = 1
                while j < m && h[i + j] == n[j] { j += 1 }
                if j == m { return true }
            }
            i += 1
        }
        return false
    }
}
