// Parsing a document from bytes that arrive in chunks (§ 13.2.3 with § 13.2.6): sniff the
// encoding once enough bytes are in, decode each chunk up to its last whole character, feed
// the tokenizer, and when the tree builder meets a `<meta>` that changes a tentative encoding,
// start again from the first byte with the new one (§ 13.2.3.4). The tree does not depend on
// how the bytes were split: the sniffing waits for the same prefix (1024 bytes for the
// prescan, `InputDecoder.detectionLimit` for the detector) a whole-page parse looks at, and the
// decoders give the same text for any split at the points `decodablePrefix` allows.

/// A document parse fed bytes in chunks. Not `Sendable`: one parse on one thread.
public final class DocumentParser {
    /// The options the parse started with.
    public let options: ParseOptions
    /// The bytes not yet decoded (all bytes since the first while a restart is possible).
    private var bytes: [UInt8] = []
    /// Bytes of `bytes` already decoded and fed.
    private var fed = 0
    private var bomLength = 0
    private var started = false
    private var document = Document()
    private var builder: TreeBuilder
    private var tokenizer: Tokenizer
    private var encoding: DocumentEncoding?

    /// A parser waiting for its first chunk.
    public init(options: ParseOptions = .init()) {
        self.options = options
        (builder, tokenizer) = DocumentParser.pipeline(for: document, options)
    }

    private static func pipeline(for document: Document, _ options: ParseOptions) -> (TreeBuilder, Tokenizer) {
        let builder = TreeBuilder(document: document, scripting: options.scripting)
        let tokenizer = Tokenizer(sink: builder)
        return (builder, tokenizer)
    }

    /// Parses the next bytes of the page.
    public func feed(_ chunk: [UInt8]) {
        if bytes.isEmpty { bytes = chunk } else { bytes += chunk }
        if !started { sniff(final: false) }
        if started { pump(final: false) }
    }

    /// Ends the input and returns the document (with its `encoding`).
    public func finish() -> Document {
        if !started { sniff(final: true) }
        pump(final: true)
        tokenizer.finish()
        if builder.tentativeEncoding == nil { encoding?.confidence = .certain }
        document.encoding = encoding
        return document
    }

    /// Runs the sniffing algorithm once it has the bytes a whole-page parse would look at.
    private func sniff(final: Bool) {
        let transport = options.transportEncoding.flatMap(InputDecoder.encoding(forLabel:))
        if !final {
            if bytes.count < 3 { return }
            let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) || bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE])
            if !bom, transport == nil {
                if bytes.count < InputDecoder.prescanLimit { return }
                if InputDecoder.prescan(bytes.prefix(InputDecoder.prescanLimit)) == nil,
                   bytes.count < InputDecoder.detectionLimit { return }
            }
        }
        let sniffed = InputDecoder.sniffEncoding(bytes, transportEncoding: options.transportEncoding,
                                                 tld: options.topLevelDomain, language: nil, complete: final)
        start(sniffed.encoding, bomLength: sniffed.bomLength)
    }

    private func start(_ encoding: DocumentEncoding, bomLength: Int) {
        self.encoding = encoding
        self.bomLength = bomLength
        fed = bomLength
        started = true
        builder.tentativeEncoding = encoding.confidence == .tentative ? encoding.name : nil
    }

    /// Decodes what can be decoded and feeds it; restarts on a change of encoding.
    private func pump(final: Bool) {
        guard let name = encoding?.name else { return }
        let end: Int
        if final {
            end = bytes.count
        } else {
            let pending = Array(bytes[fed...])
            end = fed + InputDecoder.decodablePrefix(pending, as: name)
        }
        guard end > fed else { return }
        let input = fed == 0 && end == bytes.count ? bytes : Array(bytes[fed..<end])
        fed = end
        feedDecoded(InputDecoder.decode(input, as: name))
        if let changed = builder.requestedEncoding {
            restart(with: changed, final: final)
            return
        }
        if builder.tentativeEncoding == nil {
            // Certain now: no restart can need the bytes already decoded.
            bytes = fed == bytes.count ? [] : Array(bytes[fed...])
            fed = 0
            bomLength = 0
        }
    }

    /// Feeds UTF-8 in pieces, so that a restart after a late `<meta>` wastes little work.
    private func feedDecoded(_ utf8: [UInt8]) {
        let piece = 16384
        document.reserveCapacity(forInputBytes: utf8.count)
        utf8.withUnsafeBufferPointer { all in
            var start = 0
            while start < all.count, builder.requestedEncoding == nil {
                var end = min(all.count, start + piece)
                while end < all.count, end > start, all[end] & 0xC0 == 0x80 { end -= 1 }
                // The tokenizer reads each piece in place (no copy of the page per piece).
                tokenizer.feed(UnsafeBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
    }

    private func restart(with name: String, final: Bool) {
        document = Document()
        (builder, tokenizer) = DocumentParser.pipeline(for: document, options)
        start(DocumentEncoding(name: name, source: .changed, confidence: .certain), bomLength: bomLength)
        pump(final: final)
    }
}
