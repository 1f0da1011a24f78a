// The HTML tokenizer (WHATWG HTML § 13.2.5) over UTF-8 bytes.
//
// Input is preprocessed on `feed` (§ 13.2.3.5: CR and CRLF become LF, also across chunk
// boundaries) and kept in one byte buffer; the state machine consumes as much as it can and
// keeps only the unconsumed tail (a few bytes of lookahead at most, e.g. an unfinished
// `<!DOC` or `&notin`). Character tokens are coalesced into runs and delivered when the next
// other token (or the end of input) is emitted, so the tokens do not depend on the chunking.

/// Not `Sendable`: one tokenizer belongs to one parse on one thread.
public final class Tokenizer {
    let sink: TokenSink
    /// Kept for the tree builder (the scripting flag changes tree construction, not tokenizing).
    public let scripting: Bool

    // Input.
    var input: [UInt8] = []
    var pos = 0
    var skipLeadingLF = false   // the previous chunk ended with CR
    var atEOF = false
    var finished = false

    // Machine state.
    var state: TokenizerState = .data
    var returnState: TokenizerState = .data

    // Token under construction.
    var text: [UInt8] = []            // pending character run
    var tagName: [UInt8] = []
    var tagIsEnd = false
    var selfClosing = false
    var attributes: [Attribute] = []
    var attrName: [UInt8] = []
    var attrValue: [UInt8] = []
    var attrActive = false
    var commentData: [UInt8] = []
    var doctypeName: [UInt8]? = nil
    var doctypePublic: [UInt8]? = nil
    var doctypeSystem: [UInt8]? = nil
    var doctypeForceQuirks = false
    var temp: [UInt8] = []            // the spec's temporary buffer
    var charRefCode: UInt32 = 0
    var lastStartTag: [UInt8] = []
    var hasLastStartTag = false

    public init(sink: TokenSink, scripting: Bool = true) {
        self.sink = sink
        self.scripting = scripting
        text.reserveCapacity(4096)
    }

    /// Switch the content state; callable from inside `sink.process`, effective for the next
    /// input character.
    public func switchTo(_ state: TokenizerContentState) {
        self.state = TokenizerState(state)
    }

    /// Start in another state (html5lib `initialStates`, fragment parsing).
    public func setInitialState(_ state: TokenizerContentState) {
        self.state = TokenizerState(state)
    }

    /// Start in the CDATA section state (html5lib `initialStates: ["CDATA section state"]`).
    public func setInitialStateCDATASection() {
        self.state = .cdataSection
    }

    /// The tag name of the last start tag emitted ("appropriate end tag token", § 13.2.5).
    public var lastStartTagName: String? {
        get { hasLastStartTag ? String(decoding: lastStartTag, as: UTF8.self) : nil }
        set {
            hasLastStartTag = newValue != nil
            lastStartTag = newValue.map { Array($0.utf8) } ?? []
        }
    }

    public func feed(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { feed($0) }
    }

    public func feed(_ string: String) {
        var string = string
        string.withUTF8 { feed($0) }
    }

    public func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
        precondition(!finished, "Tokenizer.feed after finish")
        guard !bytes.isEmpty else { return }
        compactInput()
        appendPreprocessed(bytes)
        runBuffered()
    }

    /// End of input: tokenize what is left, flush, emit `.eof`.
    public func finish() {
        guard !finished else { return }
        atEOF = true
        runBuffered()
        finished = true
        input.withUnsafeBufferPointer { buf in
            if let base = buf.baseAddress {
                runEOF(base, buf.count)
            } else {
                var none: UInt8 = 0
                runEOF(&none, 0)
            }
        }
        input = []
        pos = 0
    }

    /// Drop the consumed prefix so the buffer holds only the unconsumed tail.
    private func compactInput() {
        if pos == input.count {
            input.removeAll(keepingCapacity: true)
        } else if pos > 0 {
            input.removeSubrange(0..<pos)
        }
        pos = 0
    }

    /// § 13.2.3.5 Preprocessing the input stream: CRLF → LF, CR → LF.
    private func appendPreprocessed(_ bytes: UnsafeBufferPointer<UInt8>) {
        var start = 0
        if skipLeadingLF {
            skipLeadingLF = false
            if bytes[0] == Byte.lf { start = 1 }
        }
        guard let firstCR = bytes[start...].firstIndex(of: Byte.cr) else {
            input.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
            return
        }
        input.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<firstCR]))
        var i = firstCR
        let n = bytes.count
        while i < n {
            let c = bytes[i]
            if c == Byte.cr {
                input.append(Byte.lf)
                if i + 1 < n {
                    if bytes[i + 1] == Byte.lf { i += 1 }
                } else {
                    skipLeadingLF = true
                }
            } else {
                input.append(c)
            }
            i += 1
        }
    }

    private func runBuffered() {
        input.withUnsafeBufferPointer { buf in
            guard let base = buf.baseAddress else { return }
            run(base, buf.count)
        }
    }
}
