// Literal substring search on UTF-8 bytes, the one the modules share. With Foundation
// imported, `String.contains(String)` is Foundation's `range(of:)`: it compares canonically
// equivalent forms, bridges to NSString and costs thousands of instructions a call. Markup
// attributes, metadata and CSS are matched literally (JavaScript's `includes` and `indexOf`),
// which is these bytes compared.

public enum ByteSearch {
    /// The first offset at or after `from` where `needle` occurs in `haystack`, or nil (also
    /// for an empty needle).
    @inlinable
    public static func firstIndex(of needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>, from: Int = 0) -> Int? {
        let n = haystack.count, m = needle.count
        if m == 0 || n < m || from > n - m { return nil }
        let first = needle[0]
        var i = max(0, from)
        while i <= n - m {
            if haystack[i] == first {
                var j = 1
                while j < m && haystack[i + j] == needle[j] { j += 1 }
                if j == m { return i }
            }
            i += 1
        }
        return nil
    }

    /// `firstIndex` over byte arrays.
    @inlinable
    public static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from: Int = 0) -> Int? {
        haystack.withUnsafeBufferPointer { h in needle.withUnsafeBufferPointer { firstIndex(of: $0, in: h, from: from) } }
    }
}

extension String {
    /// Whether `needle` occurs in this string, byte for byte (JavaScript's `includes`). UTF-8
    /// is self-synchronizing, so a match always starts and ends on character boundaries.
    public func containsBytes(_ needle: String) -> Bool {
        if needle.isEmpty { return true }
        var haystack = self
        var needle = needle
        return haystack.withUTF8 { h in needle.withUTF8 { ByteSearch.firstIndex(of: $0, in: h) != nil } }
    }
}
