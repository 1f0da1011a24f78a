// Script data escape states (§ 13.2.5.18–31, except the ones in Tokenizer+Text.swift) and
// the CDATA section bracket/end states (§ 13.2.5.70–71). One input byte per call.

extension TokenizerCore {
    mutating func scriptStep(_ c: UInt8) {
        switch state {
        case .scriptDataEscapeStart:  // § 13.2.5.18
            if c == Byte.dash {
                text.append(Byte.dash); pos += 1; state = .scriptDataEscapeStartDash
            } else {
                state = .scriptData
            }
        case .scriptDataEscapeStartDash:  // § 13.2.5.19
            if c == Byte.dash {
                text.append(Byte.dash); pos += 1; state = .scriptDataEscapedDashDash
            } else {
                state = .scriptData
            }
        case .scriptDataEscapedDash:  // § 13.2.5.21
            pos += 1
            switch c {
            case Byte.dash: text.append(Byte.dash); state = .scriptDataEscapedDashDash
            case Byte.lt: state = .scriptDataEscapedLessThanSign
            case 0: text.append(Byte.replacement); state = .scriptDataEscaped
            default: text.append(c); state = .scriptDataEscaped
            }
        case .scriptDataEscapedDashDash:  // § 13.2.5.22
            pos += 1
            switch c {
            case Byte.dash: text.append(Byte.dash)
            case Byte.lt: state = .scriptDataEscapedLessThanSign
            case Byte.gt: text.append(Byte.gt); state = .scriptData
            case 0: text.append(Byte.replacement); state = .scriptDataEscaped
            default: text.append(c); state = .scriptDataEscaped
            }
        case .scriptDataDoubleEscapeStart, .scriptDataDoubleEscapeEnd:  // § 13.2.5.26, .31
            let starting = state == .scriptDataDoubleEscapeStart
            if Byte.isWhitespace(c) || c == Byte.slash || c == Byte.gt {
                let isScript = temp.equals(TokenizerCore.scriptName)
                if starting {
                    state = isScript ? .scriptDataDoubleEscaped : .scriptDataEscaped
                } else {
                    state = isScript ? .scriptDataEscaped : .scriptDataDoubleEscaped
                }
                text.append(c)
                pos += 1
            } else if Byte.isAlpha(c) {
                temp.append(Byte.lower(c))
                text.append(c)
                pos += 1
            } else {
                state = starting ? .scriptDataEscaped : .scriptDataDoubleEscaped
            }
        case .scriptDataDoubleEscapedDash:  // § 13.2.5.28
            pos += 1
            switch c {
            case Byte.dash: text.append(Byte.dash); state = .scriptDataDoubleEscapedDashDash
            case Byte.lt: text.append(Byte.lt); state = .scriptDataDoubleEscapedLessThanSign
            case 0: text.append(Byte.replacement); state = .scriptDataDoubleEscaped
            default: text.append(c); state = .scriptDataDoubleEscaped
            }
        case .scriptDataDoubleEscapedDashDash:  // § 13.2.5.29
            pos += 1
            switch c {
            case Byte.dash: text.append(Byte.dash)
            case Byte.lt: text.append(Byte.lt); state = .scriptDataDoubleEscapedLessThanSign
            case Byte.gt: text.append(Byte.gt); state = .scriptData
            case 0: text.append(Byte.replacement); state = .scriptDataDoubleEscaped
            default: text.append(c); state = .scriptDataDoubleEscaped
            }
        case .scriptDataDoubleEscapedLessThanSign:  // § 13.2.5.30
            if c == Byte.slash {
                temp.clear()
                text.append(Byte.slash)
                pos += 1
                state = .scriptDataDoubleEscapeEnd
            } else {
                state = .scriptDataDoubleEscaped
            }
        case .cdataSectionBracket:  // § 13.2.5.70
            if c == Byte.rbracket {
                pos += 1; state = .cdataSectionEnd
            } else {
                text.append(Byte.rbracket); state = .cdataSection
            }
        case .cdataSectionEnd:  // § 13.2.5.71
            if c == Byte.rbracket {
                text.append(Byte.rbracket); pos += 1
            } else if c == Byte.gt {
                pos += 1; state = .data
            } else {
                text.append([Byte.rbracket, Byte.rbracket]); state = .cdataSection
            }
        default:
            preconditionFailure("scriptStep in \(state)")
        }
    }

    static let scriptName: [UInt8] = Array("script".utf8)
}
