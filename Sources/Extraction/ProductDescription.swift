// A product page's own description, from its JSON-LD: when the text chosen holds few of its
// words (the description sits in a tab, a collapsed box or a script-rendered block the page
// left out), it is put before the text as its first paragraph.
import HTML

enum ProductDescription {
    /// The description to put before `text`, or nil when it is short (under `minimum` bytes:
    /// a tag line) or `text` holds `heldShare` of its words (`Tuning.productDescriptionMinimum`,
    /// `productDescriptionHeld` for a product's).
    static func missing(_ description: String?, from text: String, minimum: Int, heldShare: Double) -> String? {
        guard let description else { return nil }
        let plain = Standfirst.collapsed(withoutTags(description))
        guard plain.utf8.count >= minimum else { return nil }
        let (held, wanted) = heldWords(of: plain, in: text)
        guard wanted > 0 else { return nil }
        return Double(held) < heldShare * Double(wanted) ? plain : nil
    }

    /// How many of the words of `wanted` (repeats counted) occur in `text`, and how many words
    /// `wanted` has.
    static func heldWords(of wanted: String, in text: String) -> (held: Int, wanted: Int) {
        let present = Set(words(text).map(Word.init))
        let asked = words(wanted)
        return (asked.reduce(0) { $0 + (present.contains(Word($1)) ? 1 : 0) }, asked.count)
    }

    /// A word's bytes, hashed as one run (an `ArraySlice` hashes byte by byte).
    struct Word: Hashable {
        let bytes: ArraySlice<UInt8>
        init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }
        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
        static func == (a: Word, b: Word) -> Bool {
            a.bytes.count == b.bytes.count && a.bytes.withUnsafeBytes { x in b.bytes.withUnsafeBytes { y in x.elementsEqual(y) } }
        }
    }

    /// Lowercased words of letters and digits (ASCII lowercased; other bytes kept as they are).
    static func words(_ s: String) -> [ArraySlice<UInt8>] {
        var bytes = Array(s.utf8)
        for i in bytes.indices where bytes[i] >= 0x41 && bytes[i] <= 0x5A { bytes[i] += 0x20 }
        return bytes.split { b in b < 0x80 && !((b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x7A)) }
    }

    /// Markup some shops leave in the description ("<p>", "<br>") removed.
    static func withoutTags(_ s: String) -> String {
        guard s.utf8.contains(0x3C) else { return s }
        var out: [UInt8] = []
        var inTag = false
        for b in s.utf8 {
            if b == 0x3C { inTag = true; out.append(0x20); continue }
            if b == 0x3E, inTag { inTag = false; continue }
            if !inTag { out.append(b) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Puts `description` before the container's content as a paragraph.
    static func insert(_ description: String, into root: Node) {
        let p = root.document.createElement("p")
        _ = p.appendChild(root.document.createTextNode(description))
        _ = root.insertBefore(p, root.firstChild)
    }
}
