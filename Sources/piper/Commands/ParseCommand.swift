import Foundation
import HTML
import PiperCore
import PiperSystem

/// `piper parse [--tree | --html] [--fragment CONTEXT] [--encoding LABEL] [--scripting on|off] [--verbose] (PATH | -)`:
/// runs the HTML5 parser and prints the tree in html5lib-tests format, or the serialization.
struct ParseCommand: Command {
    static let name = "parse"
    static let abstract = "Parse an HTML file with Piper's HTML5 parser and print the tree."
    static let discussion: String? = """
        --tree (the default) prints the DOM in the html5lib-tests '#document' format: one node per
        line, '| ' then two spaces per level. --html prints the serialization instead.
        --fragment CONTEXT parses the input as the innerHTML of a CONTEXT element ('div', 'td',
        'svg path', 'math mi'). The input's encoding comes from its byte order mark, then
        --encoding, then a <meta charset> in the first 1024 bytes, then detection from the bytes
        (UTF-8 first), else windows-1252, as browsers do; a later <meta> re-decodes the page.
        --verbose prints the encoding and how it was decided to standard error.
        """
    struct Options: OptionGroup {
        var tree = Opt.flag("--tree", help: "Print the tree in html5lib-tests format (the default).")
        var html = Opt.flag("--html", help: "Print the parsed document (or fragment) serialized as HTML.")
        var fragment = Opt.text("--fragment", placeholder: "CONTEXT", help: "Parse as a fragment inside a CONTEXT element.")
        var encoding = Opt.text("--encoding", placeholder: "LABEL", help: "The input's character encoding, as HTTP would give it (e.g. utf-8).")
        var scripting = Opt.choice("--scripting", placeholder: "on|off", help: "The parser's scripting flag, on as in browsers.",
                                   default: Scripting(ParseOptions().scripting))
    }

    /// `--scripting on|off`; its default is the parser's own.
    enum Scripting: String, CaseIterable, Sendable {
        case on, off
        init(_ enabled: Bool) { self = enabled ? .on : .off }
    }
    static let arguments: [ArgumentSpec] = [
        ArgumentSpec(name: "PATH", help: "An HTML file, or - for standard input."),
    ]

    let html: Bool
    let fragmentContext: String?
    let encoding: String?
    let scripting: Bool
    let verbose: Bool
    let path: String

    init(_ parsed: Parsed<Options>) throws {
        html = try parsed.exclusive(\.tree, \.html) == 1
        fragmentContext = parsed.fragment
        if let context = fragmentContext, context.trimmingCharacters(in: .whitespaces).isEmpty {
            throw UsageError("--fragment takes an element name such as 'div' or 'svg path'")
        }
        encoding = parsed.encoding
        scripting = parsed.scripting == .on
        // The common --verbose: the input's encoding and its source (bom, transport, meta,
        // detected, default, changed) on stderr.
        verbose = parsed.common.verbose
        path = parsed.positionals[0]
    }

    func run() async throws -> ExitCode {
        MemoryPolicy.mapLargeBlocksFromTheSystem()   // one page in, one answer out: a lower peak
        guard let bytes = path == "-" ? InputBytes.standardInput() : InputBytes.file(path) else {
            throw UnreadableInput(path: path)
        }
        let options = ParseOptions(scripting: scripting, transportEncoding: encoding)
        if let context = fragmentContext {
            // Fragments take text: decode with the same rules a document would get.
            let decoded = InputDecoder.decode(bytes, transportEncoding: encoding)
            if verbose { Output.err("encoding: \(decoded.encoding) (\(decoded.source.rawValue))") }
            let text = String(decoding: decoded.utf8, as: UTF8.self)
            let (document, fragment) = Document.parseFragment(text, context: context, options: options)
            withExtendedLifetime(document) {
                Output.out(html ? fragment.innerHTML : dumpTree(fragment))
            }
        } else {
            let document = Document.parse(bytes: bytes, options: options)
            if verbose, let e = document.encoding { Output.err("encoding: \(e.name) (\(e.source.rawValue))") }
            Output.out(html ? document.node.innerHTML : dumpTree(document.node))
        }
        return .success
    }
}
