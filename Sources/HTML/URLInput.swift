/// The URL parser's clean-up of its input (WHATWG URL, basic URL parser: remove every ASCII tab
/// and newline, strip leading and trailing C0 controls and spaces), which is what a browser does
/// to an `href` or `src` before reading it. Shared by the backend's sanitizer and Readability's
/// URL resolution.
package enum URLInput {
    /// The cleaned input; the input itself (no copy) when there is nothing to remove.
    package static func stripped(_ raw: String) -> String {
        isAlreadyStripped(raw) ? raw : strippedByScalars(raw)
    }

    /// True when `stripped(raw)` is `raw`: no tab/LF/CR anywhere and no byte ≤ 0x20 at either end
    /// (a UTF-8 multi-byte sequence never starts or ends with one).
    package static func isAlreadyStripped(_ raw: String) -> Bool {
        if let clean = raw.utf8.withContiguousStorageIfAvailable({ isAlreadyStripped(bytes: $0) }) { return clean }
        return isAlreadyStripped(bytes: Array(raw.utf8))
    }

    /// The rule by its letter, scalar by scalar.
    package static func strippedByScalars(_ raw: String) -> String {
        let scalars = raw.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
        var view = Substring.UnicodeScalarView(scalars)
        while let first = view.first, first.value <= 0x20 { view.removeFirst() }
        while let last = view.last, last.value <= 0x20 { view.removeLast() }
        return String(view)
    }

    private static func isAlreadyStripped<C: Collection<UInt8>>(bytes: C) -> Bool {
        guard let first = bytes.first else { return true }
        var last = first
        for byte in bytes {
            if byte == 0x09 || byte == 0x0A || byte == 0x0D { return false }
            last = byte
        }
        return first > 0x20 && last > 0x20
    }
}
