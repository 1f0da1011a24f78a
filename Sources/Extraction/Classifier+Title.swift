// The title as the classifier compares headings with it: normalized once per page, and a
// heading told from it byte by byte (ASCII) or Character by Character.

extension Classifier {
    /// Lowercased, whitespace runs collapsed, trimmed. An ASCII string (most titles) is done
    /// on its bytes: there lowercasing is A-Z only, and white space is tab, line feed,
    /// vertical tab, form feed, carriage return and space (a walk over Characters costs more
    /// than the rest of a classifier's set-up).
    static func normalized(_ s: String) -> String {
        var s = s
        let ascii: String? = s.withUTF8 { bytes in
            if bytes.contains(where: { $0 >= 0x80 }) { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var pendingSpace = false
            for b in bytes {
                if b == 0x20 || (b >= 0x09 && b <= 0x0D) {
                    pendingSpace = !out.isEmpty
                    continue
                }
                if pendingSpace {
                    out.append(0x20)
                    pendingSpace = false
                }
                out.append(b >= 0x41 && b <= 0x5A ? b + 0x20 : b)
            }
            return String(decoding: out, as: UTF8.self)
        }
        return ascii ?? s.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Whether `normalized(text) == title`. ASCII text (most headings) is compared byte by
    /// byte as it is normalized: there lowercasing is A-Z only, and white space is tab, line
    /// feed, vertical tab, form feed, carriage return and space.
    static func isTitle(_ text: String, _ title: String) -> Bool {
        var text = text, title = title
        let ascii: Bool? = text.withUTF8 { t in
            if t.contains(where: { $0 >= 0x80 }) { return nil }
            return title.withUTF8 { expected in
                var k = 0
                var pendingSpace = false
                for b in t {
                    if b == 0x20 || (b >= 0x09 && b <= 0x0D) {
                        pendingSpace = k > 0
                        continue
                    }
                    if pendingSpace {
                        guard k < expected.count, expected[k] == 0x20 else { return false }
                        k += 1
                        pendingSpace = false
                    }
                    guard k < expected.count, expected[k] == (b >= 0x41 && b <= 0x5A ? b + 0x20 : b) else { return false }
                    k += 1
                }
                return k == expected.count
            }
        }
        return ascii ?? isTitleByCharacters(text, title)
    }

    /// `isTitle` for text with non-ASCII bytes: its Characters lowercased one by one (Swift's
    /// lowercasing maps each scalar on its own, so the pieces join to the whole's) and
    /// compared as they come with the title's Characters (canonically, as `==` compares
    /// strings), a white-space run as one space, so a heading that is not the title is told
    /// after its first few Characters.
    static func isTitleByCharacters(_ text: String, _ title: String) -> Bool {
        var expected = title.makeIterator()
        var started = false
        var pendingSpace = false
        for character in text {
            if character.isWhitespace {
                pendingSpace = started
                continue
            }
            if pendingSpace {
                guard expected.next() == " " else { return false }
                pendingSpace = false
            }
            started = true
            for lowered in character.lowercased() {
                guard expected.next() == lowered else { return false }
            }
        }
        return expected.next() == nil
    }
}
