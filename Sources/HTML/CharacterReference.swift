// Character reference states: § 13.2.5.72 Character reference, .73 Named character
// reference, .74 Ambiguous ampersand, .75–80 numeric references.
//
// The ambiguous ampersand state is folded into the return state: it only passes ASCII
// alphanumerics (and a ';') through to the same place the return state would put them,
// and its one difference is a parse error, which this tokenizer does not report.

extension TokenizerCore {
    /// § 13.2.5.72 + .73. The `&` is already consumed. Returns false to wait for more input.
    mutating func characterReference(_ p: UnsafePointer<UInt8>, _ end: Int) -> Bool {
        let c = p[pos]
        if c == Byte.hash {
            temp.clear()
            temp.append([Byte.amp, Byte.hash])
            pos += 1
            state = .numericCharacterReference
            return true
        }
        guard Byte.isAlnum(c) else {
            flushCharRef([Byte.amp])
            state = returnState
            return true
        }
        switch NamedCharacterReferences.longestMatch(p + pos, end - pos, atEOF: atEOF) {
        case .needMoreInput:
            return false
        case .none:
            flushCharRef([Byte.amp])
            state = returnState
        case .found(let length, let index):
            let endsWithSemicolon = p[pos + length - 1] == Byte.semicolon
            if returnState.isAttributeValue && !endsWithSemicolon {
                // Historical reasons: `&amp=` and `&ampx` stay as written inside attributes.
                if pos + length == end && !atEOF { return false }
                if pos + length < end && (p[pos + length] == Byte.eq || Byte.isAlnum(p[pos + length])) {
                    attrValue.append(Byte.amp)
                    attrValue.append(p + pos, length)
                    pos += length
                    state = returnState
                    return true
                }
            }
            pos += length
            let (first, second) = NamedCharacterReferences.scalars(at: index)
            appendCharRefScalar(first)
            if second != 0 { appendCharRefScalar(second) }
            state = returnState
        }
        return true
    }

    mutating func numericCharacterReferenceStep(_ c: UInt8) {
        switch state {
        case .numericCharacterReference:  // § 13.2.5.75
            charRefCode = 0
            if c == 0x78 || c == 0x58 {  // x X
                temp.append(c); pos += 1; state = .hexadecimalCharacterReferenceStart
            } else {
                state = .decimalCharacterReferenceStart
            }
        case .hexadecimalCharacterReferenceStart:  // § 13.2.5.76
            if Byte.hexValue(c) != nil {
                state = .hexadecimalCharacterReference
            } else {
                flushCharRef(temp); state = returnState
            }
        case .decimalCharacterReferenceStart:  // § 13.2.5.77
            if Byte.isDigit(c) {
                state = .decimalCharacterReference
            } else {
                flushCharRef(temp); state = returnState
            }
        case .hexadecimalCharacterReference, .decimalCharacterReference:  // § 13.2.5.78, .79
            let hex = state == .hexadecimalCharacterReference
            let digit: UInt32? = hex ? Byte.hexValue(c) : (Byte.isDigit(c) ? UInt32(c &- 0x30) : nil)
            if let digit {
                // Saturate: anything above U+10FFFF is replaced the same way.
                charRefCode = min(charRefCode &* (hex ? 16 : 10) &+ digit, 0x110000)
                pos += 1
            } else {
                if c == Byte.semicolon { pos += 1 }
                state = .numericCharacterReferenceEnd
            }
        case .numericCharacterReferenceEnd:
            numericCharacterReferenceEnd()
        default:
            preconditionFailure("numericCharacterReferenceStep in \(state)")
        }
    }

    /// § 13.2.5.80 Numeric character reference end state (consumes nothing).
    mutating func numericCharacterReferenceEnd() {
        appendCharRefScalar(TokenizerCore.numericReferenceValue(charRefCode))
        state = returnState
    }

    /// The scalar a numeric reference stands for, with the spec's replacements.
    static func numericReferenceValue(_ code: UInt32) -> UInt32 {
        switch code {
        case 0, 0x110000...: return 0xFFFD
        case 0xD800...0xDFFF: return 0xFFFD
        case 0x80...0x9F:
            let mapped = c1Replacements[Int(code - 0x80)]
            return mapped == 0 ? code : mapped
        default: return code
        }
    }

    /// § 13.2.5.80's table for 0x80–0x9F (0 = keep the code point).
    private static let c1Replacements: [UInt32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]
}
