import CGumbo
import HTML

/// Counts tokens and discards them: tokenizer-only throughput.
final class CountingSink: TokenSink {
    var count = 0
    var adjustedCurrentNodeIsForeign: Bool { false }
    func process(_ token: Token) { count &+= 1 }
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
