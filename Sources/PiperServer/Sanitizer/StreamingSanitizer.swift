import HTML

/// The sanitizer's fast path: writes the safe markup straight from the tokenizer's tokens, with
/// no tree, for input the tree builder would build exactly as it is written. It tracks the
/// stack of open elements the tree builder would have and declines, so `HTMLSanitizer` takes
/// the full path (parse, then walk), at the first token where the tree could differ from the
/// markup or the policy would remove or unwrap something:
/// - a start tag the policy does not keep as is (dropped, unwrapped, foreign, `audio`/`video`,
///   which gain attributes or become links), or one `RoundTrip` says the parser would place
///   elsewhere (a `div` in a `p`, an `a` in an `a`, a `tr` outside a row group …);
/// - an end tag that does not close the current element;
/// - text the parser would move out of a table, a U+0000, a doctype, or a comment right after
///   `<pre>` (where the parser skips a newline).
/// When it does not decline, the output is what the walk writes for the tree (a differential
/// test holds the two to byte equality), so the same writer makes the same guarantees: only
/// allow-listed names and attributes, escaped text and values. Nothing is counted as removed.
///
/// Not Sendable: one instance per call, used on the calling thread.
final class StreamingSanitizer: TokenSink {
    private typealias N = SanitizerNames
    private var writer: SafeHTMLWriter
    /// The open elements, outermost first: ids (for `RoundTrip`) and names (for end tags).
    private var open: [Int32] = []
    private var names: [String] = []
    private var declined = false
    /// The ids of the tag names met so far: a document uses a few dozen, and comparing short
    /// strings costs less than hashing them.
    private var seen: [(name: String, id: Int32)] = []
    /// The previous token was `<pre>`: a newline starting the next text is the parser's to drop.
    private var afterPre = false

    /// Bytes fed to the tokenizer at a time, so a decline stops the work early.
    private static let chunk = 4096

    private init(capacity: Int) {
        writer = SafeHTMLWriter(capacity: capacity)
    }

    /// The sanitized markup, or nil when `html` needs the full path.
    static func sanitize(_ html: String) -> String? {
        let sink = StreamingSanitizer(capacity: html.utf8.count)
        let tokenizer = Tokenizer(sink: sink)
        var html = html
        html.withUTF8 { bytes in
            var start = 0
            while start < bytes.count, !sink.declined {
                let end = min(bytes.count, start + chunk)
                tokenizer.feed(UnsafeBufferPointer(rebasing: bytes[start..<end]))
                start = end
            }
        }
        guard !sink.declined else { return nil }
        tokenizer.finish()
        guard !sink.declined else { return nil }
        return sink.writer.output
    }

    var adjustedCurrentNodeIsForeign: Bool { false }

    func process(_ token: Token) -> TokenSinkResult {
        guard !declined else { return .continue }
        let wasAfterPre = afterPre
        afterPre = false
        switch token {
        case .characters(let text):
            characters(text, afterPre: wasAfterPre)
        case .startTag(let tag):
            start(tag)
        case .endTag(let tag):
            guard let current = names.last, current == tag.name else { return decline() }
            writer.end(current)
            names.removeLast()
            open.removeLast()
        case .comment:
            if wasAfterPre { return decline() }
        case .doctype:
            return decline()
        case .eof:
            // The parser leaves open elements open; the walk closes them as it climbs out.
            while let name = names.popLast() { writer.end(name) }
            open.removeAll()
        }
        return .continue
    }

    private func decline() -> TokenSinkResult {
        declined = true
        return .continue
    }

    private func characters(_ text: String, afterPre: Bool) {
        // A U+0000 comes as a token of its own; in body the parser ignores it.
        guard text.utf8.first != 0 else { _ = decline(); return }
        guard !RoundTrip.textMoves(text, open: open) else { _ = decline(); return }
        if afterPre, text.utf8.first == 0x0A {
            writer.text(String(text.dropFirst()))
        } else {
            writer.text(text)
        }
    }

    private func start(_ tag: TagToken) {
        let id = self.id(tag.name)
        guard Self.accepts(id), !RoundTrip.startTagMoves(id, open: open) else { _ = decline(); return }
        writer.open(tag.name)
        for attribute in tag.attributes {
            if let value = SanitizerPolicy.attributeValue(element: id, name: attribute.name, value: attribute.value) {
                writer.attribute(attribute.name, value)
            }
        }
        writer.close(tag.name)
        afterPre = id == N.pre
        // A self-closing flag on a non-void HTML element is ignored: it stays open.
        if !HTMLElements.isVoid(id) {
            open.append(id)
            names.append(tag.name)
        }
    }

    private func id(_ name: String) -> Int32 {
        for entry in seen where entry.name == name { return entry.id }
        let id = N.id(name)
        if seen.count < 32 { seen.append((name, id)) }
        return id
    }

    /// The known elements the policy keeps as they are (not `audio` or `video`).
    private static let accepted: [Bool] = (0..<HTMLElements.knownCount).map { id in
        let name = HTMLElements.name(id) ?? ""
        return SanitizerPolicy.action(forHTMLElement: name) == .keep && id != N.audio && id != N.video
    }

    private static func accepts(_ id: Int32) -> Bool {
        id >= 0 && id < HTMLElements.knownCount && accepted[Int(id)]
    }
}
