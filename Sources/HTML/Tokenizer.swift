import Foundation

// The HTML tokenizer (WHATWG HTML § 13.2.5) over UTF-8 bytes.
//
// Input is preprocessed on `feed` (§ 13.2.3.5: CR and CRLF become LF, also across chunk
// boundaries) and kept in one byte buffer; the state machine consumes as much as it can and
// keeps only the unconsumed tail (a few bytes of lookahead at most, e.g. an unfinished
// `<!DOC` or `&notin`). Character tokens are coalesced into runs and delivered when the next
// other token (or the end of input) is emitted, so the tokens do not depend on the chunking.
//
// The machine's state lives in a struct (`TokenizerCore`) that `feed` moves into a local
// variable while it runs: its fields are then checked for exclusive access at compile time,
// not on every access at run time as a class's fields would be.

/// Not `Sendable`: one tokenizer belongs to one parse on one thread.
public final class Tokenizer {
    let sink: TokenSink

    /// nil only while `feed`/`finish` run the machine.
    @exclusivity(unchecked) private var core: TokenizerCore?
    @exclusivity(unchecked) private var input: [UInt8] = []
    @exclusivity(unchecked) private var skipLeadingLF = false   // the previous chunk ended with CR
    @exclusivity(unchecked) private var finished = false
    /// A state asked for by `setInitialState`, applied before the first character.
    @exclusivity(unchecked) var requestedState: TokenizerState?

    /// The tag name of the last start tag emitted ("appropriate end tag token", § 13.2.5);
    /// set by every start tag, and settable for fragment parsing and tests (not from a sink
    /// while the tokenizer runs).
    public var lastStartTagName: String? {
        get { core?.lastStartTagName }
        set { core?.lastStartTagName = newValue }
    }

    /// A tokenizer feeding `sink`. (The scripting flag changes tree construction, not
    /// tokenizing: it belongs to the tree builder.)
    public init(sink: TokenSink) {
        self.sink = sink
        core = TokenizerCore(owner: self)
    }

    deinit {
        core?.freeBuffers()
    }

    /// Start in another state (html5lib `initialStates`, fragment parsing).
    public func setInitialState(_ state: TokenizerContentState) {
        requestedState = TokenizerState(state)
    }

    /// Start in the CDATA section state (html5lib `initialStates: ["CDATA section state"]`).
    public func setInitialStateCDATASection() {
        requestedState = .cdataSection
    }

    /// Tokenizes `bytes` (UTF-8), emitting every token they complete; the input may end anywhere.
    public func feed(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { feed($0) }
    }

    /// Tokenizes the UTF-8 of `string`, as `feed(_:)` with bytes.
    public func feed(_ string: String) {
        var string = string
        string.withUTF8 { feed($0) }
    }

    /// Tokenizes the bytes in `bytes` (UTF-8) without copying them first.
    public func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
        precondition(!finished, "Tokenizer.feed after finish")
        guard var chunk = bytes.baseAddress, !bytes.isEmpty else { return }
        guard var machine = core else { preconditionFailure("Tokenizer.feed re-entered from its sink") }
        core = nil
        defer { core = machine }
        var count = bytes.count
        if skipLeadingLF {
            skipLeadingLF = false
            if chunk[0] == Byte.lf {
                chunk += 1
                count -= 1
            }
        }
        if machine.pos == input.count {
            input.removeAll(keepingCapacity: true)
        } else if machine.pos > 0 {
            input.removeSubrange(0..<machine.pos)
        }
        machine.pos = 0
        machine.applyRequestedState()
        let firstCR = Tokenizer.firstCR(chunk, from: 0, count)
        if input.isEmpty && firstCR == count {
            // Common case: nothing buffered and no CR; tokenize the caller's bytes in place
            // and keep only the unconsumed tail.
            machine.run(chunk, count)
            input.append(contentsOf: UnsafeBufferPointer(start: chunk + machine.pos, count: count - machine.pos))
            machine.pos = 0
            return
        }
        appendPreprocessed(chunk, count, firstCR: firstCR)
        input.withUnsafeBufferPointer { buf in
            if let base = buf.baseAddress { machine.run(base, buf.count) }
        }
    }

    /// End of input: tokenize what is left, flush, emit `.eof`.
    public func finish() {
        guard !finished else { return }
        guard var machine = core else { preconditionFailure("Tokenizer.finish re-entered from its sink") }
        core = nil
        finished = true
        machine.atEOF = true
        input.withUnsafeBufferPointer { buf in
            machine.applyRequestedState()
            if let base = buf.baseAddress { machine.run(base, buf.count) }
            machine.runEOF()
        }
        input = []
        core = machine
    }

    /// § 13.2.3.5 Preprocessing the input stream: CRLF → LF, CR → LF. Copies the runs between
    /// CRs whole (pages saved with CRLF line ends have a CR every few dozen bytes).
    private func appendPreprocessed(_ bytes: UnsafePointer<UInt8>, _ n: Int, firstCR: Int) {
        input.reserveCapacity(input.count + n)
        var start = 0
        var cr = firstCR
        while cr < n {
            input.append(contentsOf: UnsafeBufferPointer(start: bytes + start, count: cr - start))
            input.append(Byte.lf)
            start = cr + 1
            if start < n {
                if bytes[start] == Byte.lf { start += 1 }
            } else {
                skipLeadingLF = true
            }
            cr = Tokenizer.firstCR(bytes, from: start, n)
        }
        input.append(contentsOf: UnsafeBufferPointer(start: bytes + start, count: n - start))
    }

    /// The index of the first CR in bytes[from..<n], or n (glibc's vectorized `memchr`).
    static func firstCR(_ bytes: UnsafePointer<UInt8>, from: Int, _ n: Int) -> Int {
        guard from < n, let hit = memchr(bytes + from, Int32(Byte.cr), n - from) else { return n }
        return UnsafeRawPointer(hit) - UnsafeRawPointer(bytes)
    }
}

/// The state machine's data: position, state, the token under construction.
struct TokenizerCore {
    /// The tokenizer that owns this core (its sink, initial state).
    /// Unowned: the core lives inside its owner, or in a local of the owner's method.
    unowned(unsafe) let owner: Tokenizer
    /// The owner's sink (the owner holds it strongly for as long as the core runs).
    unowned(unsafe) let sink: TokenSink
    /// The sink again when it is the tree builder, which takes nearly every token there is:
    /// a call through `Unmanaged` costs no retain and release around it, where a call through
    /// an unowned reference costs both.
    let builder: Unmanaged<TreeBuilder>?
    /// See `Tokenizer.lastStartTagName`.
    var lastStartTagName: String?
    let names = TokenNames.shared

    var pos = 0
    var atEOF = false
    var state: TokenizerState = .data
    var returnState: TokenizerState = .data

    var text = ByteRun(capacity: 4096) // pending character run
    /// Set while the pending text is a script's or raw-text element's (the sink switched to
    /// `.scriptData` or `.rawtext` after a start tag): it goes out through `processRawText`.
    var rawTextMode = false
    var tagName = ByteRun()
    var tagIsEnd = false
    var selfClosing = false
    var attributes: [Attribute] = []
    var attrName = ByteRun()
    var attrValue = ByteRun(capacity: 256)
    var attrActive = false
    var commentData = ByteRun(capacity: 256)
    var doctypeName: [UInt8]? = nil
    var doctypePublic: [UInt8]? = nil
    var doctypeSystem: [UInt8]? = nil
    var doctypeForceQuirks = false
    var temp = ByteRun()              // the spec's temporary buffer
    let shortStrings = ShortStrings()
    var charRefCode: UInt32 = 0

    init(owner: Tokenizer) {
        self.owner = owner
        sink = owner.sink
        builder = (owner.sink as? TreeBuilder).map { Unmanaged.passUnretained($0) }
    }

    func freeBuffers() {
        for run in [text, tagName, attrName, attrValue, commentData, temp] { run.free() }
        shortStrings.free()
    }

    mutating func applyRequestedState() {
        if let requested = owner.requestedState {
            state = requested
            owner.requestedState = nil
        }
    }
}
