import Foundation
import HTML
import PiperTestSupport

/// Paths relative to the package root (computed from this file's location).
enum TestPaths {
    static let packageRoot = PiperTestSupport.packageRoot
    static let shared = packageRoot.appendingPathComponent("../shared").standardizedFileURL
    static let html5lib = shared.appendingPathComponent("corpus/html5lib-tests")

    /// The committed minimum for `key` in `Tests/HTMLTests/Ratchets/<file>` (see `Ratchet`).
    static func ratchet(_ file: String, _ key: String) throws -> Int {
        try Ratchet.minimum(key, in: "Tests/HTMLTests/Ratchets/\(file)")
    }
}

/// Collects tokens as html5lib-tests writes them, coalescing adjacent character tokens.
final class TokenCollector: TokenSink {
    var tokens: [String] = []
    var pendingText = ""
    var foreign = false
    var adjustedCurrentNodeIsForeign: Bool { foreign }

    @discardableResult
    func process(_ token: Token) -> TokenSinkResult {
        if case .characters(let s) = token {
            pendingText += s
            return .continue
        }
        if !pendingText.isEmpty {
            tokens.append(TokenCollector.character(pendingText))
            pendingText = ""
        }
        switch token {
        case .doctype(let d):
            tokens.append("DOCTYPE(\(q(d.name)), \(q(d.publicIdentifier)), \(q(d.systemIdentifier)), \(!d.forceQuirks))")
        case .startTag(let t):
            let attrs = t.attributes.map { "\(q($0.name))=\(q($0.value))" }.sorted().joined(separator: ", ")
            tokens.append("StartTag(\(q(t.name)), {\(attrs)}\(t.selfClosing ? ", true" : ""))")
        case .endTag(let t):
            tokens.append("EndTag(\(q(t.name)))")
        case .comment(let s):
            tokens.append("Comment(\(q(s)))")
        case .characters, .eof:
            break
        }
        return .continue
    }

    static func character(_ s: String) -> String { "Character(\(q(s)))" }
}

/// A quoted, escaped rendering that shows control and invisible characters.
func q(_ s: String?) -> String {
    guard let s else { return "null" }
    var out = "\""
    for u in s.unicodeScalars {
        switch u {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\u{20}"..."\u{7E}": out.unicodeScalars.append(u)
        default:
            if u.value > 0x7F && u.properties.isAlphabetic { out.unicodeScalars.append(u) }
            else { out += String(format: "\\u{%04X}", u.value) }
        }
    }
    return out + "\""
}

/// html5lib `doubleEscaped`: turn `\uXXXX` sequences into code points, as WTF-8 bytes (lone
/// surrogates survive as their 3-byte generalized UTF-8 form).
func unescapeToWTF8(_ s: String) -> [UInt8] {
    let units = Array(s.unicodeScalars)
    var out: [UInt8] = []
    var i = 0
    func hex4(_ at: Int) -> UInt32? {
        guard at + 6 <= units.count, units[at] == "\\", units[at + 1] == "u" else { return nil }
        return UInt32(String(String.UnicodeScalarView(units[(at + 2)..<(at + 6)])), radix: 16)
    }
    while i < units.count {
        if var v = hex4(i) {
            i += 6
            if (0xD800...0xDBFF).contains(v), let low = hex4(i), (0xDC00...0xDFFF).contains(low) {
                v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
                i += 6
            }
            appendWTF8(v, &out)
        } else {
            out.append(contentsOf: Array(String(units[i]).utf8))
            i += 1
        }
    }
    return out
}

private func appendWTF8(_ v: UInt32, _ out: inout [UInt8]) {
    switch v {
    case 0..<0x80: out.append(UInt8(v))
    case 0x80..<0x800: out += [UInt8(0xC0 | (v >> 6)), UInt8(0x80 | (v & 0x3F))]
    case 0x800..<0x10000:
        out += [UInt8(0xE0 | (v >> 12)), UInt8(0x80 | ((v >> 6) & 0x3F)), UInt8(0x80 | (v & 0x3F))]
    default:
        out += [UInt8(0xF0 | (v >> 18)), UInt8(0x80 | ((v >> 12) & 0x3F)),
                UInt8(0x80 | ((v >> 6) & 0x3F)), UInt8(0x80 | (v & 0x3F))]
    }
}
