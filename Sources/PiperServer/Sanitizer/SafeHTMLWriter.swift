/// Writes sanitized HTML: names come from the allow-list, text and values are always escaped.
/// The markup goes straight into one byte buffer (no intermediate strings per tag).
struct SafeHTMLWriter {
    private var bytes: [UInt8] = []
    /// True right after `<pre>`, until anything else is written: the parser drops one newline
    /// there, so text that starts with one gets another (also when removed elements came first).
    private var atPreStart = false

    /// `capacity`: the expected output size (the input's is a good guess).
    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    var output: String { String(decoding: bytes, as: UTF8.self) }

    /// A whole start tag: `start(name, attributes)` is `open`, each `attribute`, then `close`.
    mutating func start(_ name: String, _ attributes: [(String, String)]) {
        open(name)
        for (key, value) in attributes { attribute(key, value) }
        close(name)
    }

    /// `<name`, to be followed by attributes and `close(name)`.
    mutating func open(_ name: String) {
        bytes.append(UInt8(ascii: "<"))
        bytes.append(contentsOf: name.utf8)
    }

    /// ` key="value"` (value escaped); an empty `controls` is written bare.
    mutating func attribute(_ key: String, _ value: String) {
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: key.utf8)
        if value.isEmpty && key == "controls" { return }
        bytes.append(UInt8(ascii: "="))
        bytes.append(UInt8(ascii: "\""))
        HTMLEscape.append(value, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// The `>` that ends the start tag of `name`.
    mutating func close(_ name: String) {
        bytes.append(UInt8(ascii: ">"))
        atPreStart = name == "pre"
    }

    mutating func end(_ name: String) {
        bytes.append(UInt8(ascii: "<"))
        bytes.append(UInt8(ascii: "/"))
        bytes.append(contentsOf: name.utf8)
        bytes.append(UInt8(ascii: ">"))
        atPreStart = false
    }

    mutating func text(_ text: String) {
        if text.isEmpty { return }
        if atPreStart && text.utf8.first == 0x0A { bytes.append(0x0A) }
        atPreStart = false
        HTMLEscape.append(text, to: &bytes)
    }

    mutating func raw(_ safe: String) {
        bytes.append(contentsOf: safe.utf8)
        atPreStart = false
    }
}
