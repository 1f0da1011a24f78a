import CGumbo
import HTML

/// Counts tokens and discards them: tokenizer-only throughput.
final class CountingSink: TokenSink {
    var count = 0
    var adjustedCurrentNodeIsForeign: Bool { false }
    func process(_ token: Token) -> TokenSinkResult { count &+= 1; return .continue }
}

/// One way of parsing a page; returns something derived from the result so the work is kept.
protocol ParserRunner {
    var name: String { get }
    func parse(_ page: Page) -> Int
}

struct TokenizeRunner: ParserRunner {
    let name = "piper tokenize"
    func parse(_ page: Page) -> Int {
        let sink = CountingSink()
        let tokenizer = Tokenizer(sink: sink)
        tokenizer.feed(page.utf8)
        tokenizer.finish()
        return sink.count
    }
}

/// The full parse: bytes → `InputDecoder` (UTF-8 given, as a transport charset would) →
/// tokenizer → tree builder → arena DOM.
struct ParseRunner: ParserRunner {
    let name = "piper parse"
    func parse(_ page: Page) -> Int {
        let document = Document.parse(bytes: page.utf8, options: ParseOptions(transportEncoding: "utf-8"))
        return document.node.firstChild == nil ? 0 : 1
    }
}

/// gumbo_parse_with_options + gumbo_destroy_output: a full parse (tree built, then freed).
struct GumboRunner: ParserRunner {
    let name = "gumbo parse"
    func parse(_ page: Page) -> Int {
        withUnsafePointer(to: kGumboDefaultOptions) { options in
            page.utf8.withUnsafeBufferPointer { buf in
                buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buf.count) { chars in
                    guard let output = gumbo_parse_with_options(options, chars, buf.count) else { return 0 }
                    let children = Int(output.pointee.root.pointee.v.element.children.length)
                    gumbo_destroy_output(options, output)
                    return children
                }
            }
        }
    }

}

/// A gumbo parse result kept alive (for the memory comparison); destroyed on deinit.
final class GumboTree {
    private let output: UnsafeMutablePointer<GumboOutput>?
    private let bytes: [UInt8]

    init(_ page: Page) {
        let utf8 = page.utf8
        bytes = utf8  // gumbo's tree points into the input: keep it alive as long as the tree
        output = withUnsafePointer(to: kGumboDefaultOptions) { options in
            utf8.withUnsafeBufferPointer { buf in
                buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buf.count) { chars in
                    gumbo_parse_with_options(options, chars, buf.count)
                }
            }
        }
    }

    deinit {
        guard let output else { return }
        withUnsafePointer(to: kGumboDefaultOptions) { gumbo_destroy_output($0, output) }
    }
}
