// Parses the selector subset described in Selector.swift into a `SelectorList`.

enum SelectorParser {
    static func parse(_ text: String) -> SelectorList? {
        var scanner = Scanner(bytes: Array(text.utf8))
        var complexes: [ComplexSelector] = []
        while true {
            scanner.skipWhitespace()
            guard let complex = scanner.complex() else { return nil }
            complexes.append(complex)
            scanner.skipWhitespace()
            if scanner.atEnd { break }
            guard scanner.eat(UInt8(ascii: ",")) else { return nil }
        }
        return complexes.isEmpty ? nil : SelectorList(complexes: complexes)
    }

    struct Scanner {
        let bytes: [UInt8]
        var i = 0

        var atEnd: Bool { i >= bytes.count }
        var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

        mutating func eat(_ b: UInt8) -> Bool {
            if peek == b { i += 1; return true }
            return false
        }

        mutating func skipWhitespace() {
            while let b = peek, isASCIIWhitespace(b) { i += 1 }
        }

        static func isNameByte(_ b: UInt8) -> Bool {
            (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39)
                || b == UInt8(ascii: "-") || b == UInt8(ascii: "_") || b >= 0x80
        }

        mutating func identifier() -> String? {
            var out: [UInt8] = []
            while let b = peek {
                if b == UInt8(ascii: "\\"), i + 1 < bytes.count {
                    out.append(bytes[i + 1]); i += 2; continue
                }
                guard Scanner.isNameByte(b) else { break }
                out.append(b); i += 1
            }
            return out.isEmpty ? nil : String(decoding: out, as: UTF8.self)
        }

        /// Reads a complex selector (compounds joined by combinators), subject last in the
        /// text, stored right to left.
        mutating func complex() -> ComplexSelector? {
            var compounds: [CompoundSelector] = []
            var combinators: [Combinator] = []
            guard let first = compound() else { return nil }
            compounds.append(first)
            while true {
                let before = i
                skipWhitespace()
                let sawSpace = i > before
                var combinator: Combinator?
                if eat(UInt8(ascii: ">")) { combinator = .child }
                else if eat(UInt8(ascii: "+")) { combinator = .nextSibling }
                else if eat(UInt8(ascii: "~")) { combinator = .subsequentSibling }
                else if sawSpace, let b = peek, b != UInt8(ascii: ",") { combinator = .descendant }
                guard let link = combinator else { i = before; break }
                skipWhitespace()
                guard let next = compound() else { return nil }
                combinators.append(link)
                compounds.append(next)
            }
            return ComplexSelector(compounds: compounds.reversed(), combinators: combinators.reversed())
        }

        mutating func compound() -> CompoundSelector? {
            var result = CompoundSelector()
            var any = false
            if eat(UInt8(ascii: "*")) {
                any = true
            } else if let b = peek, Scanner.isNameByte(b), let name = identifier() {
                result.tag = asciiLowercased(name)
                any = true
            }
            while let b = peek {
                if b == UInt8(ascii: ".") {
                    i += 1
                    guard let name = identifier() else { return nil }
                    result.classes.append(name)
                } else if b == UInt8(ascii: "#") {
                    i += 1
                    guard let name = identifier() else { return nil }
                    result.ids.append(name)
                } else if b == UInt8(ascii: "[") {
                    i += 1
                    guard let attribute = attributeSelector() else { return nil }
                    result.attributes.append(attribute)
                } else if b == UInt8(ascii: ":") {
                    return nil // pseudo-classes are not supported
                } else {
                    break
                }
                any = true
            }
            return any ? result : nil
        }

        mutating func attributeSelector() -> AttributeSelector? {
            skipWhitespace()
            guard let name = identifier() else { return nil }
            skipWhitespace()
            if eat(UInt8(ascii: "]")) { return AttributeSelector(name: asciiLowercased(name), op: .exists, value: "") }
            var op = AttributeSelector.Operator.equals
            if let b = peek, b != UInt8(ascii: "=") {
                switch b {
                case UInt8(ascii: "~"): op = .includes
                case UInt8(ascii: "|"): op = .dashMatch
                case UInt8(ascii: "^"): op = .prefix
                case UInt8(ascii: "$"): op = .suffix
                case UInt8(ascii: "*"): op = .substring
                default: return nil
                }
                i += 1
            }
            guard eat(UInt8(ascii: "=")) else { return nil }
            skipWhitespace()
            var value: String
            if let quote = peek, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                i += 1
                var out: [UInt8] = []
                while let b = peek, b != quote {
                    if b == UInt8(ascii: "\\"), i + 1 < bytes.count { out.append(bytes[i + 1]); i += 2; continue }
                    out.append(b); i += 1
                }
                guard eat(quote) else { return nil }
                value = String(decoding: out, as: UTF8.self)
            } else {
                guard let ident = identifier() else { return nil }
                value = ident
            }
            skipWhitespace()
            _ = eat(UInt8(ascii: "i")) // case flag accepted, not honoured
            skipWhitespace()
            guard eat(UInt8(ascii: "]")) else { return nil }
            return AttributeSelector(name: asciiLowercased(name), op: op, value: value)
        }
    }
}
