import Foundation
import HTML

/// One text of the generated encoding corpus (Fixtures/encoding, scripts/gen-encoding-corpus):
/// a language's paragraphs, and their bytes in one encoding.
struct EncodingCorpusCase: CustomStringConvertible {
    var language: String
    var encoding: String
    var text: String
    var body: [UInt8]

    var description: String { "\(language) in \(encoding)" }

    static let directory = TestPaths.packageRoot.appendingPathComponent("Tests/HTMLTests/Fixtures/encoding")

    static func loadAll() throws -> [EncodingCorpusCase] {
        let list = try String(contentsOf: directory.appendingPathComponent("cases.txt"), encoding: .utf8)
        return try list.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let parts = line.split(separator: " ").map(String.init)
            let textURL = directory.appendingPathComponent("text/\(parts[0]).txt")
            let text = try String(contentsOf: textURL, encoding: .utf8)
            let body = parts[1] == "utf-8" ? Array(text.utf8)
                : [UInt8](try Data(contentsOf: directory.appendingPathComponent("\(parts[0]).\(parts[1]).bin")))
            return EncodingCorpusCase(language: parts[0], encoding: parts[1], text: text, body: body)
        }
    }

    /// The page variants the tests parse.
    enum Variant { case declared, undeclared, lateDeclaration, wrongDeclaration }

    /// A page holding the body in one `<p>`; every encoding here is ASCII-compatible, so the
    /// markup around the body is the same bytes in all of them.
    func page(_ variant: Variant) -> [UInt8] {
        let meta: String
        switch variant {
        case .declared: meta = "<meta charset=\"\(encoding)\">"
        case .undeclared: meta = ""
        case .lateDeclaration:
            meta = "<!-- " + String(repeating: "filler comment text ", count: 60) + "-->\n<meta charset=\"\(encoding)\">"
        case .wrongDeclaration: meta = "<meta charset=\"\(wrongDeclaration)\">"
        }
        let head = "<!DOCTYPE html>\n<html><head>\(meta)<title>corpus</title></head>\n<body><p id=text>"
        return Array(head.utf8) + body + Array("</p></body></html>\n".utf8)
    }

    /// The wrong label a page declares: UTF-8 pages claim windows-1252 (the classic), single-byte
    /// ones claim UTF-8, CJK ones claim gb2312 (Shift_JIS for the GBK texts).
    var wrongDeclaration: String {
        if encoding == "utf-8" { return "windows-1252" }
        if InputDecoder.detectableEncodings.prefix(11).contains(encoding) { return "utf-8" }
        return encoding == "gbk" || encoding == "gb18030" ? "shift_jis" : "gb2312"
    }

    /// The text of the `<p>` of a parsed page.
    static func text(of document: Document) -> String? {
        document.node.querySelector("#text")?.textContent
    }
}
