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
    /// Everything the sink changes, in one struct: a class's stored properties are checked for
    /// exclusive access at run time on every use (about a tenth of the fast path's
    /// instructions, when they were the sink's own properties); a struct's fields inside its
    /// mutating methods are not, so each token costs one such check.
    private var state: State

    /// Bytes fed to the tokenizer at a time, so a decline stops the work early.
    private static let chunk = 4096

    private init(capacity: Int) {
        state = State(writer: SafeHTMLWriter(capacity: capacity))
    }

    /// The sanitized markup, or nil when `html` needs the full path.
    static func sanitize(_ html: String) -> String? {
        let sink = StreamingSanitizer(capacity: html.utf8.count)
        let tokenizer = Tokenizer(sink: sink)
        var html = html
        html.withUTF8 { bytes in
            var start = 0
            while start < bytes.count, !sink.state.declined {
                let end = min(bytes.count, start + chunk)
                tokenizer.feed(UnsafeBufferPointer(rebasing: bytes[start..<end]))
                start = end
            }
        }
        guard !sink.state.declined else { return nil }
        tokenizer.finish()
        guard !sink.state.declined else { return nil }
        return sink.state.writer.output
    }

    var adjustedCurrentNodeIsForeign: Bool { false }

    func process(_ token: Token) -> TokenSinkResult {
        state.process(token)
        return .continue
    }

    private struct State {
        var writer: SafeHTMLWriter
        /// The open elements, outermost first: ids (for `RoundTrip`) and names (for end tags).
        var open: [Int32] = []
        var names: [String] = []
        var declined = false
        /// The previous token was `<pre>`: a newline starting the next text is the parser's to drop.
        var afterPre = false

        mutating func process(_ token: Token) {
            guard !declined else { return }
            let wasAfterPre = afterPre
            afterPre = false
            switch token {
            case .characters(let text):
                characters(text, afterPre: wasAfterPre)
            case .startTag(let tag):
                start(tag)
            case .endTag(let tag):
                guard let current = names.last, current == tag.name else { declined = true; return }
                writer.end(current)
                names.removeLast()
                open.removeLast()
            case .comment:
                if wasAfterPre { declined = true }
            case .doctype:
                declined = true
            case .eof:
                // The parser leaves open elements open; the walk closes them as it climbs out.
                while let name = names.popLast() { writer.end(name) }
                open.removeAll()
            }
        }

        private mutating func characters(_ text: String, afterPre: Bool) {
            // A U+0000 comes as a token of its own; in body the parser ignores it.
            guard text.utf8.first != 0, !RoundTrip.textMoves(text, open: open) else { declined = true; return }
            if afterPre, text.utf8.first == 0x0A {
                writer.text(String(text.dropFirst()))
            } else {
                writer.text(text)
            }
        }

        private mutating func start(_ tag: TagToken) {
            // The tokenizer numbered the name as it read it (-1 for a name HTML does not know,
            // which no table accepts).
            let id = tag.nameID
            guard StreamingSanitizer.accepts(id), !RoundTrip.startTagMoves(id, open: open) else { declined = true; return }
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
