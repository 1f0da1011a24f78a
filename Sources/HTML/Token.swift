// The contract between the tokenizer (WHATWG HTML § 13.2.5) and the tree builder (§ 13.2.6).
// The tokenizer pushes tokens into a `TokenSink`; the tree builder is one sink, the
// conformance tests' token collector is another.

/// One attribute as the tokenizer produced it (name already lowercased, duplicates dropped).
/// The tree builder adjusts names and sets `namespace` for foreign content.
public struct Attribute: Equatable, Sendable {
    /// The attribute's name.
    public var name: String
    /// The attribute's value, character references decoded.
    public var value: String
    /// nil for ordinary attributes; set by the tree builder's foreign attribute adjustment
    /// (xlink:href etc.).
    public var namespace: Namespace?
    /// The prefix for adjusted foreign attributes ("xlink" in xlink:href), else nil.
    public var prefix: String?

    /// An attribute; `namespace` and `prefix` only for adjusted foreign attributes.
    public init(name: String, value: String, namespace: Namespace? = nil, prefix: String? = nil) {
        self.name = name
        self.value = value
        self.namespace = namespace
        self.prefix = prefix
    }
}

/// Element namespaces the HTML parser knows about.
public enum Namespace: UInt8, Sendable {
    case html, svg, mathml, xlink, xml, xmlns
}

/// A DOCTYPE token (HTML § 13.2.5): missing parts are nil, as the spec's "missing".
public struct DoctypeToken: Equatable, Sendable {
    /// The doctype's name, lowercased.
    public var name: String?
    /// The public identifier, when one was given.
    public var publicIdentifier: String?
    /// The system identifier, when one was given.
    public var systemIdentifier: String?
    /// The force-quirks flag.
    public var forceQuirks: Bool

    /// A doctype token with the given parts.
    public init(name: String? = nil, publicIdentifier: String? = nil, systemIdentifier: String? = nil, forceQuirks: Bool = false) {
        self.name = name
        self.publicIdentifier = publicIdentifier
        self.systemIdentifier = systemIdentifier
        self.forceQuirks = forceQuirks
    }
}

/// A start or end tag token.
public struct TagToken: Equatable, Sendable {
    /// Lowercased tag name (ASCII upper alpha lowered, as the spec says).
    public var name: String {
        didSet { nameID = TagNames.lookup[name] ?? -1 }
    }
    /// The name's number among the names HTML knows (`Document.knownNameID`), -1 for others:
    /// the tokenizer finds it while reading the name, so the tree builder never hashes it.
    public private(set) var nameID: Int32
    /// The attributes in source order, duplicates dropped.
    public var attributes: [Attribute]
    /// The self-closing flag (`<br/>`).
    public var selfClosing: Bool

    /// A tag token with the given name and attributes.
    public init(name: String, attributes: [Attribute] = [], selfClosing: Bool = false) {
        self.init(name: name, nameID: TagNames.lookup[name] ?? -1, attributes: attributes, selfClosing: selfClosing)
    }

    /// A tag token whose name's number is already known (`TagNames.lookup[name] ?? -1`).
    init(name: String, nameID: Int32, attributes: [Attribute] = [], selfClosing: Bool = false) {
        self.name = name
        self.nameID = nameID
        self.attributes = attributes
        self.selfClosing = selfClosing
    }

    /// The value of the attribute `name`, or nil.
    public func attribute(_ name: String) -> String? {
        attributes.first(where: { $0.name == name })?.value
    }
}

/// One token of the HTML tokenizer's output (HTML § 13.2.5).
public enum Token: Equatable, Sendable {
    case doctype(DoctypeToken)
    case startTag(TagToken)
    case endTag(TagToken)
    case comment(String)
    /// A run of character tokens. Runs are coalesced for speed. A U+0000 that the tokenizer
    /// emits as is comes as its own token: a run is either one U+0000 or free of it (the tree
    /// builder handles U+0000 per insertion mode).
    case characters(String)
    case eof
}

/// Tokenizer states the tree builder may switch to (§ 13.2.5 and the tree builder's
/// "switch the tokenizer to the … state" steps).
public enum TokenizerContentState: Sendable {
    case data, rcdata, rawtext, scriptData, plaintext
}

/// What a sink answers for a token (html5ever's `TokenSinkResult`): go on, or switch the
/// tokenizer's content state, effective for the very next input character (the tree builder's
/// "switch the tokenizer to the RCDATA state" and its siblings).
public enum TokenSinkResult: Equatable, Sendable {
    case `continue`
    case switchTo(TokenizerContentState)
}

/// Receives tokens, synchronously from the tokenizer. The sink holds no reference to the
/// tokenizer: a state switch is the value `process` returns.
public protocol TokenSink: AnyObject {
    func process(_ token: Token) -> TokenSinkResult
    /// True when the adjusted current node exists and is not in the HTML namespace; the
    /// tokenizer asks this at `<![CDATA[` (§ 13.2.5.42 Markup declaration open state).
    var adjustedCurrentNodeIsForeign: Bool { get }
    /// See the default implementation below.
    func processRawText(_ bytes: UnsafeBufferPointer<UInt8>) -> TokenSinkResult
}

extension TokenSink {
    /// The text of a script or raw-text element (`.characters`, as UTF-8 bytes), between the
    /// start tag whose answer switched to `.scriptData` or `.rawtext` and the end tag. A sink
    /// that stores the text unread may keep the bytes; this default hands over `.characters`.
    public func processRawText(_ bytes: UnsafeBufferPointer<UInt8>) -> TokenSinkResult {
        process(.characters(String(decoding: bytes, as: UTF8.self)))
    }
}
