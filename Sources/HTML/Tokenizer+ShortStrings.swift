// Text runs and attribute values of up to 15 UTF-8 bytes ("\n    " between tags, "_blank",
// "button") repeat throughout a page. They are small Strings (stored inline, no allocation),
// but making one still validates the bytes; a direct-mapped table of the last string made for
// each slot turns a repeat into a two-word compare.

struct ShortStrings {
    private struct Entry {
        var key: TokenNames.Key
        var string: String
    }

    private static let slots = 256
    private let entries: UnsafeMutablePointer<Entry>

    init() {
        entries = .allocate(capacity: Self.slots)
        // An empty key is the empty string's: every slot starts out right.
        entries.initialize(repeating: Entry(key: TokenNames.Key(), string: ""), count: Self.slots)
    }

    func free() {
        entries.deinitialize(count: Self.slots)
        entries.deallocate()
    }

    /// The string of the bytes in `run`.
    @inline(__always) func string(_ run: ByteRun) -> String {
        guard run.count <= 15 else { return run.string }
        let key = TokenNames.Key(run)
        let entry = entries + (key.hash & (Self.slots - 1))
        if entry.pointee.key == key { return entry.pointee.string }
        let s = run.string
        entry.pointee = Entry(key: key, string: s)
        return s
    }
}
