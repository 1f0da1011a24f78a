// Parsing entry points: a whole document (§ 13.2) from a string or from bytes (decoded by
// `InputDecoder` and `DocumentParser`: BOM, transport charset, meta prescan, autodetection,
// windows-1252), and the HTML fragment parsing algorithm (§ 13.4) with a context element.

/// How a document is parsed: the scripting flag and the hints for decoding bytes.
public struct ParseOptions: Sendable {
    /// The scripting flag: on by default (noscript content is raw text, as in browsers).
    public var scripting: Bool = true
    /// A charset label from the HTTP Content-Type (or the user), used by `parse(bytes:)`:
    /// it wins over everything but a byte order mark.
    public var transportEncoding: String? = nil
    /// The top-level domain of the page's URL ("jp"), a hint for encoding autodetection.
    public var topLevelDomain: String? = nil

    /// Options with the spec's defaults: scripting on, no transport encoding, no domain hint.
    public init(scripting: Bool = true, transportEncoding: String? = nil, topLevelDomain: String? = nil) {
        self.scripting = scripting
        self.transportEncoding = transportEncoding
        self.topLevelDomain = topLevelDomain
    }

    /// The top-level domain of `host` ("www.example.co.jp" → "jp"), nil for an IP address.
    public static func topLevelDomain(ofHost host: String?) -> String? {
        guard let host, let last = host.split(separator: ".").last, last.contains(where: \.isLetter) else { return nil }
        return last.lowercased()
    }
}

extension Document {
    /// Parses a whole document from a string, as a browser's parser does (HTML § 13.2): never
    /// fails, and always returns a document with `html`, `head` and `body`. For bytes of an
    /// unknown encoding use `parse(bytes:options:)`; for input arriving in pieces, `DocumentParser`.
    public static func parse(_ html: String, options: ParseOptions = .init()) -> Document {
        let document = Document()
        let builder = TreeBuilder(document: document, scripting: options.scripting)
        let tokenizer = Tokenizer(sink: builder)
        tokenizer.feed(html)
        tokenizer.finish()
        return document
    }

    /// Parses a page from its bytes: the encoding comes from the BOM, the transport
    /// encoding, a `<meta>`, autodetection or windows-1252, and is kept in `encoding`.
    public static func parse(bytes: [UInt8], options: ParseOptions = .init()) -> Document {
        let parser = DocumentParser(options: options)
        parser.feed(bytes)
        return parser.finish()
    }

    /// The HTML fragment parsing algorithm. `context` names the context element: "div",
    /// or "svg path" / "math mi" for foreign contexts. Returns the document that owns the
    /// nodes and a detached document fragment holding the parsed nodes.
    public static func parseFragment(_ html: String, context: String, options: ParseOptions = .init()) -> (Document, Node) {
        parseFragment(html, context: FragmentContext(context), quirksMode: .noQuirks, options: options)
    }

    static func parseFragment(_ html: String, context: FragmentContext, quirksMode: QuirksMode, options: ParseOptions) -> (Document, Node) {
        let document = Document()
        document.quirksMode = quirksMode
        let builder = TreeBuilder(document: document, scripting: options.scripting)
        let tokenizer = Tokenizer(sink: builder)
        builder.prepareFragment(context: context, tokenizer: tokenizer)
        tokenizer.feed(html)
        tokenizer.finish()
        let root = document.nodes[Int(document.node.index)].firstChild
        let fragment = document.newNode(.documentFragment)
        if root >= 0 {
            document.moveChildren(of: root, to: fragment)
            document.unlink(root)
        }
        return (document, Node(document, fragment))
    }
}

/// The context element of a fragment parse: a local name and a namespace.
struct FragmentContext {
    var localName: String
    var namespace: Namespace

    init(localName: String, namespace: Namespace) {
        self.localName = localName
        self.namespace = namespace
    }

    /// "div", "svg path", "math mi".
    init(_ text: String) {
        let parts = text.split(separator: " ", maxSplits: 1).map(String.init)
        if parts.count == 2 && (parts[0] == "svg" || parts[0] == "math") {
            localName = parts[1]
            namespace = parts[0] == "svg" ? .svg : .mathml
        } else {
            localName = asciiLowercased(text)
            namespace = .html
        }
    }
}

extension TreeBuilder {
    /// Steps 4-12 of the fragment parsing algorithm (§ 13.4).
    func prepareFragment(context: FragmentContext, tokenizer: Tokenizer) {
        contextElement = document.newElement(document.intern(context.localName), context.namespace, [])
        if context.namespace == .html {
            switch knownID(context.localName) {
            case Tag.title, Tag.textarea: tokenizer.setInitialState(.rcdata)
            case Tag.style, Tag.xmp, Tag.iframe, Tag.noembed, Tag.noframes: tokenizer.setInitialState(.rawtext)
            case Tag.script: tokenizer.setInitialState(.scriptData)
            case Tag.noscript where scripting: tokenizer.setInitialState(.rawtext)
            case Tag.plaintext: tokenizer.setInitialState(.plaintext)
            default: break
            }
        }
        // No last start tag: the tokenizer has emitted none, so no end tag is "appropriate"
        // (§ 13.2.5) and `</script>` in a script context (or `</title>` in a title) is text.
        let root = document.newElement(Tag.html, .html, [])
        document.link(root, appendTo: 0)
        stack.removeAll()
        stack.append(root)
        if isHTML(contextElement, Tag.template) { templateModes.append(.inTemplate) }
        resetInsertionMode()
    }
}
