// § 13.2.3.2 "Prescan a byte stream to determine its encoding", with its "get an attribute"
// algorithm and § 2.x "extracting a character encoding from a meta element".

extension InputDecoder {
    /// The encoding a `<meta charset>` or `<meta http-equiv=content-type content=…>` in
    /// `bytes` declares, or nil. Running out of bytes anywhere means failure (nil).
    public static func prescan<C: Collection>(_ bytes: C) -> String? where C.Element == UInt8 {
        var scanner = Prescanner(bytes: Array(bytes))
        return scanner.run()
    }
}

private struct Prescanner {
    let bytes: [UInt8]
    var pos = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    struct OutOfBytes: Error {}

    func at(_ i: Int) throws -> UInt8 {
        guard i < bytes.count else { throw OutOfBytes() }
        return bytes[i]
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D || b == 0x20 }
    static func lower(_ b: UInt8) -> UInt8 { b &- 0x41 < 26 ? b | 0x20 : b }
    static func isAlpha(_ b: UInt8) -> Bool { (b | 0x20) &- 0x61 < 26 }

    /// Whether `word` (lowercase ASCII) starts at `i`, ASCII case-insensitively. No allocation:
    /// the loop runs at every byte position.
    func matches(_ word: StaticString, at i: Int) -> Bool {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count else { return false }
        let w = word.utf8Start
        for k in 0..<n where Prescanner.lower(bytes[i + k]) != w[k] { return false }
        return true
    }

    mutating func run() -> String? {
        do {
            while pos < bytes.count {
                if let found = try step() { return found }
                pos += 1
            }
        } catch {}
        return nil
    }

    /// One position of the prescan loop; returns the encoding when a meta declares one.
    mutating func step() throws -> String? {
        guard bytes[pos] == 0x3C else { return nil }  // every rule below starts at '<'
        if matches("<!--", at: pos) {
            // The '>' of the first "-->" (its dashes may be those of "<!--").
            var i = pos + 2
            while true {
                if try at(i + 2) == 0x3E, bytes[i] == 0x2D, bytes[i + 1] == 0x2D { pos = i + 2; return nil }
                i += 1
            }
        }
        if matches("<meta", at: pos), let next = bytes[safe: pos + 5], Prescanner.isSpace(next) || next == 0x2F {
            pos += 6
            return try meta()
        }
        if try at(pos) == 0x3C, let next = bytes[safe: pos + 1],
           Prescanner.isAlpha(next) || (next == 0x2F && bytes[safe: pos + 2].map(Prescanner.isAlpha) == true) {
            while !(Prescanner.isSpace(try at(pos)) || bytes[pos] == 0x3E) { pos += 1 }
            while try attribute() != nil {}
            return nil
        }
        if matches("<!", at: pos) || matches("</", at: pos) || matches("<?", at: pos) {
            while try at(pos) != 0x3E { pos += 1 }
        }
        return nil
    }

    /// The attributes of a `<meta`, then the charset decision.
    mutating func meta() throws -> String? {
        var seen: Set<[UInt8]> = []
        var gotPragma = false
        var needPragma: Bool? = nil
        var charset: String? = nil
        while let (name, value) = try attribute() {
            guard seen.insert(name).inserted else { continue }
            switch String(decoding: name, as: UTF8.self) {
            case "http-equiv":
                if value == Array("content-type".utf8) { gotPragma = true }
            case "content":
                if charset == nil, let label = InputDecoder.extractCharset(value), let enc = InputDecoder.encoding(forLabel: label) {
                    charset = enc
                    needPragma = true
                }
            case "charset":
                charset = InputDecoder.encoding(forLabel: String(decoding: value, as: UTF8.self))
                needPragma = false
            default:
                break
            }
        }
        guard let need = needPragma, !(need && !gotPragma), var result = charset else { return nil }
        if result == "utf-16be" || result == "utf-16le" { result = "utf-8" }
        if result == "x-user-defined" { result = "windows-1252" }
        return result
    }

    /// "Get an attribute": nil when the tag ends ('>') before another attribute.
    mutating func attribute() throws -> ([UInt8], [UInt8])? {
        while Prescanner.isSpace(try at(pos)) || bytes[pos] == 0x2F { pos += 1 }
        if bytes[pos] == 0x3E { return nil }
        var name: [UInt8] = [], value: [UInt8] = []
        nameLoop: while true {
            let c = try at(pos)
            switch c {
            case 0x3D where !name.isEmpty:
                pos += 1
                return (name, try attributeValue())
            case 0x09, 0x0A, 0x0C, 0x0D, 0x20:
                break nameLoop
            case 0x2F, 0x3E:
                return (name, value)
            default:
                name.append(Prescanner.lower(c))
            }
            pos += 1
        }
        while Prescanner.isSpace(try at(pos)) { pos += 1 }
        guard bytes[pos] == 0x3D else { return (name, value) }
        pos += 1
        return (name, try attributeValue())
    }

    mutating func attributeValue() throws -> [UInt8] {
        var value: [UInt8] = []
        while Prescanner.isSpace(try at(pos)) { pos += 1 }
        let first = bytes[pos]
        if first == 0x22 || first == 0x27 {
            while true {
                pos += 1
                let c = try at(pos)
                if c == first { pos += 1; return value }
                value.append(Prescanner.lower(c))
            }
        }
        if first == 0x3E { return value }
        value.append(Prescanner.lower(first))
        while true {
            pos += 1
            let c = try at(pos)
            if Prescanner.isSpace(c) || c == 0x3E { return value }
            value.append(Prescanner.lower(c))
        }
    }
}

extension InputDecoder {
    /// "Extracting a character encoding from a meta element" on a content attribute value
    /// (already ASCII-lowercased).
    static func extractCharset(_ s: [UInt8]) -> String? {
        var i = 0
        let word: StaticString = "charset"
        let wordBytes = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        while i + word.utf8CodeUnitCount <= s.count {
            guard s[i..<(i + word.utf8CodeUnitCount)].elementsEqual(wordBytes) else { i += 1; continue }
            var j = i + word.utf8CodeUnitCount
            while j < s.count, isSpace(s[j]) { j += 1 }
            guard j < s.count, s[j] == 0x3D else { i += word.utf8CodeUnitCount; continue }
            j += 1
            while j < s.count, isSpace(s[j]) { j += 1 }
            guard j < s.count else { return nil }
            if s[j] == 0x22 || s[j] == 0x27 {
                guard let close = s[(j + 1)...].firstIndex(of: s[j]) else { return nil }
                return String(decoding: s[(j + 1)..<close], as: UTF8.self)
            }
            var k = j
            while k < s.count, !isSpace(s[k]), s[k] != 0x3B { k += 1 }
            return String(decoding: s[j..<k], as: UTF8.self)
        }
        return nil
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D || b == 0x20 }
}

private extension Array {
    subscript(safe i: Int) -> Element? { i < count ? self[i] : nil }
}
