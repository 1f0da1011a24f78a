// § 13.2.6 Tree construction: the tree builder is the tokenizer's `TokenSink` and builds
// straight into the arena `Document`. One enum for insertion modes; every rule returns a
// `Step` (`.reprocess(mode)` instead of recursing).

/// § 13.2.4.1 The insertion mode.
enum InsertionMode {
    case initial            // § 13.2.6.4.1 (#the-initial-insertion-mode)
    case beforeHTML         // § 13.2.6.4.2 (#the-before-html-insertion-mode)
    case beforeHead         // § 13.2.6.4.3 (#the-before-head-insertion-mode)
    case inHead             // § 13.2.6.4.4 (#parsing-main-inhead)
    case inHeadNoscript     // § 13.2.6.4.5 (#parsing-main-inheadnoscript)
    case afterHead          // § 13.2.6.4.6 (#the-after-head-insertion-mode)
    case inBody             // § 13.2.6.4.7 (#parsing-main-inbody)
    case text               // § 13.2.6.4.8 (#parsing-main-incdata)
    case inTable            // § 13.2.6.4.9 (#parsing-main-intable)
    case inTableText        // § 13.2.6.4.10 (#parsing-main-intabletext)
    case inCaption          // § 13.2.6.4.11 (#parsing-main-incaption)
    case inColumnGroup      // § 13.2.6.4.12 (#parsing-main-incolgroup)
    case inTableBody        // § 13.2.6.4.13 (#parsing-main-intbody)
    case inRow              // § 13.2.6.4.14 (#parsing-main-intr)
    case inCell             // § 13.2.6.4.15 (#parsing-main-intd)
    // The "in select" and "in select in table" modes were removed from the standard with the
    // customizable <select> parser changes; `select` is handled by "in body".
    case inTemplate         // § 13.2.6.4 "in template" (#parsing-main-intemplate)
    case afterBody          // § 13.2.6.4 "after body" (#parsing-main-afterbody)
    case inFrameset         // § 13.2.6.4 "in frameset" (#parsing-main-inframeset)
    case afterFrameset      // § 13.2.6.4 "after frameset" (#parsing-main-afterframeset)
    case afterAfterBody     // § 13.2.6.4 "after after body" (#the-after-after-body-insertion-mode)
    case afterAfterFrameset // § 13.2.6.4 "after after frameset" (#the-after-after-frameset-insertion-mode)
}

/// What a rule asks the dispatcher to do next.
enum Step {
    case done
    /// Switch to the mode and process the same token again.
    case reprocess(InsertionMode)
    /// Switch to the mode and process `token`: the unprocessed rest of a character run.
    case reprocessRest(Token, InsertionMode)
}

/// An entry in the list of active formatting elements (§ 13.2.4.3).
enum FormattingEntry {
    case marker
    case element(Int32, TagToken)
}

/// Builds one document; a fresh builder per parse. Not Sendable (owned by one parse).
final class TreeBuilder: TokenSink {
    // One parse owns the builder and runs it on one thread; every rule reads and writes these
    // fields, so the run-time exclusivity checks (a TLS access set per read) are turned off.
    let document: Document
    /// A tokenizer state switch a rule asked for while processing the current token; `process`
    /// returns it to the tokenizer.
    @exclusivity(unchecked) var tokenizerSwitch: TokenizerContentState?
    let scripting: Bool

    @exclusivity(unchecked) var mode: InsertionMode = .initial
    @exclusivity(unchecked) var originalMode: InsertionMode = .initial
    @exclusivity(unchecked) var templateModes: [InsertionMode] = []
    /// § 13.2.4.2 The stack of open elements (node indices).
    @exclusivity(unchecked) var stack: OpenElements
    /// § 13.2.4.3 The list of active formatting elements.
    @exclusivity(unchecked) var formatting: [FormattingEntry] = []
    @exclusivity(unchecked) var headElement: Int32 = -1
    @exclusivity(unchecked) var formElement: Int32 = -1
    @exclusivity(unchecked) var framesetOK = true
    @exclusivity(unchecked) var fosterParenting = false
    @exclusivity(unchecked) var ignoreNextLineFeed = false
    /// The "in table text" pending character tokens.
    @exclusivity(unchecked) var pendingTableText: [String] = []
    @exclusivity(unchecked) var pendingTableTextHasNonSpace = false
    /// Fragment case: the context element (in this document, not in the tree), else -1.
    @exclusivity(unchecked) var contextElement: Int32 = -1
    @exclusivity(unchecked) var stopped = false
    /// The encoding the input is decoded with while its confidence is tentative (set by
    /// `DocumentParser`); nil once it is certain.
    @exclusivity(unchecked) var tentativeEncoding: String?
    /// Set when a `<meta>` changed the encoding: the parse stops and restarts with it.
    @exclusivity(unchecked) var requestedEncoding: String?

    init(document: Document, scripting: Bool) {
        self.document = document
        self.scripting = scripting
        document.scripting = scripting
        stack = OpenElements(document: document)
    }

    // MARK: TokenSink

    var adjustedCurrentNodeIsForeign: Bool {
        let node = adjustedCurrentNode
        return node >= 0 && document.nodes[Int(node)].namespace != .html
    }

    func process(_ token: Token) -> TokenSinkResult {
        guard !stopped else { return .continue }
        defer { if !stack.poppedOptions.isEmpty { clonePoppedOptions() } }
        if ignoreNextLineFeed {
            ignoreNextLineFeed = false
            if case let .characters(s) = token, s.utf8.first == 0x0A {
                let rest = String(Substring(s.utf8.dropFirst()))
                if rest.isEmpty { return .continue }
                return dispatch(.characters(rest))
            }
        }
        return dispatch(token)
    }

    /// A script's or raw-text element's text: in the "text" insertion mode (the only rule that
    /// applies there is "insert the characters") it is stored as bytes; anywhere else it goes
    /// through `process` as a character token.
    func processRawText(_ bytes: UnsafeBufferPointer<UInt8>) -> TokenSinkResult {
        let node = adjustedCurrentNode
        guard mode == .text, !stopped, !ignoreNextLineFeed, stack.poppedOptions.isEmpty,
              node >= 0, namespace(node) == .html else {
            return process(.characters(String(decoding: bytes, as: UTF8.self)))
        }
        insertRawText(bytes)
        guard let next = tokenizerSwitch else { return .continue }
        tokenizerSwitch = nil
        return .switchTo(next)
    }

    /// Runs the rules for `token` until one is done. The token is only borrowed (no copy of
    /// its payload per token); the rest of a split character run is dispatched on its own.
    private func dispatch(_ token: Token) -> TokenSinkResult {
        while true {
            let step = useForeignContentRules(for: token) ? foreignContent(token) : rules(for: mode, token)
            switch step {
            case .done:
                guard let next = tokenizerSwitch else { return .continue }
                tokenizerSwitch = nil
                return .switchTo(next)
            case let .reprocess(next): mode = next
            case let .reprocessRest(rest, next):
                mode = next
                return dispatch(rest)
            }
        }
    }

    /// Processes `token` using the rules for `mode` (§ 13.2.6.4), without switching modes.
    func rules(for mode: InsertionMode, _ token: Token) -> Step {
        switch mode {
        case .initial: return initial(token)
        case .beforeHTML: return beforeHTML(token)
        case .beforeHead: return beforeHead(token)
        case .inHead: return inHead(token)
        case .inHeadNoscript: return inHeadNoscript(token)
        case .afterHead: return afterHead(token)
        case .inBody: return inBody(token)
        case .text: return text(token)
        case .inTable: return inTable(token)
        case .inTableText: return inTableText(token)
        case .inCaption: return inCaption(token)
        case .inColumnGroup: return inColumnGroup(token)
        case .inTableBody: return inTableBody(token)
        case .inRow: return inRow(token)
        case .inCell: return inCell(token)
        case .inTemplate: return inTemplate(token)
        case .afterBody: return afterBody(token)
        case .inFrameset: return inFrameset(token)
        case .afterFrameset: return afterFrameset(token)
        case .afterAfterBody: return afterAfterBody(token)
        case .afterAfterFrameset: return afterAfterFrameset(token)
        }
    }

    /// § 13.2.6.5 "Stop parsing": pop everything off the stack.
    func stopParsing() -> Step {
        stack.removeAll()
        stopped = true
        return .done
    }

    // MARK: Tokenizer control

    /// "Switch the tokenizer to the … state": answered to the tokenizer when the token is done.
    func switchTokenizer(_ state: TokenizerContentState) {
        tokenizerSwitch = state
    }
}

// MARK: Character-run helpers (runs are split at ASCII whitespace boundaries, byte-exact)

extension String {
    /// Splits off the leading run of ASCII whitespace: (whitespace, rest).
    func splitLeadingWhitespace() -> (Substring.UTF8View, Substring.UTF8View) {
        let u = utf8
        var i = u.startIndex
        while i != u.endIndex, isASCIIWhitespace(u[i]) { i = u.index(after: i) }
        return (self[..<i].utf8, self[i...].utf8)
    }

    var isAllASCIIWhitespace: Bool {
        utf8.allSatisfy(isASCIIWhitespace)
    }

    /// True for a character run made of U+0000 (the tokenizer delivers each U+0000 it emits
    /// as is in a token of its own, so a run either starts with U+0000 and is nothing else, or
    /// has none; pieces of a run keep that).
    var isNullRun: Bool { utf8.first == 0 }
}
