// The text states: § 13.2.5.1 Data, .2 RCDATA, .3 RAWTEXT, .4 Script data, .5 PLAINTEXT,
// .20 Script data escaped, .27 Script data double escaped, .69 CDATA section.
// Each scans a run of ordinary bytes at once and appends it to the pending character run.

extension TokenizerCore {
    /// Index of the first byte in p[i..<end] equal to a, b or c (end if none). Looks at eight
    /// bytes at a time (SWAR: a zero byte in x ^ pattern marks a match).
    @inline(__always)
    func scan(_ p: UnsafePointer<UInt8>, _ i: Int, _ end: Int, _ a: UInt8, _ b: UInt8, _ c: UInt8) -> Int {
        ByteScan.first(p, i, end, a, b, c)
    }

    /// The step every text state shares: append the run of ordinary bytes up to the first a, b
    /// or c, consume that byte and return it; nil when the chunk ends first.
    @inline(__always)
    mutating func takeTextRun(_ p: UnsafePointer<UInt8>, _ end: Int, _ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8? {
        let i = scan(p, pos, end, a, b, c)
        appendText(p, pos, i)
        pos = i
        guard i < end else { return nil }
        pos += 1
        return p[i]
    }

    mutating func textRun(_ p: UnsafePointer<UInt8>, _ end: Int) {
        switch state {
        case .data:
            guard let byte = takeTextRun(p, end, Byte.lt, Byte.amp, 0) else { return }
            switch byte {
            case Byte.lt: state = .tagOpen
            case Byte.amp: returnState = .data; state = .characterReference
            default: emitNull()   // U+0000 is emitted as is in the data state
            }
        case .rcdata:
            guard let byte = takeTextRun(p, end, Byte.lt, Byte.amp, 0) else { return }
            switch byte {
            case Byte.lt: state = .rcdataLessThanSign
            case Byte.amp: returnState = .rcdata; state = .characterReference
            default: text.append(Byte.replacement)
            }
        case .rawtext, .scriptData, .plaintext:
            let lt: UInt8 = state == .plaintext ? 0 : Byte.lt  // PLAINTEXT stops only at U+0000
            let stop = ByteScan.firstOrNull(p, pos, end, lt)
            appendText(p, pos, stop)
            pos = stop
            guard stop < end else { return }
            pos += 1
            if p[stop] == 0 {
                text.append(Byte.replacement)
            } else {
                state = state == .rawtext ? .rawtextLessThanSign : .scriptDataLessThanSign
            }
        case .scriptDataEscaped:
            guard let byte = takeTextRun(p, end, Byte.lt, Byte.dash, 0) else { return }
            switch byte {
            case Byte.dash: text.append(Byte.dash); state = .scriptDataEscapedDash
            case Byte.lt: state = .scriptDataEscapedLessThanSign
            default: text.append(Byte.replacement)
            }
        case .scriptDataDoubleEscaped:
            guard let byte = takeTextRun(p, end, Byte.lt, Byte.dash, 0) else { return }
            switch byte {
            case Byte.dash: text.append(Byte.dash); state = .scriptDataDoubleEscapedDash
            case Byte.lt: text.append(Byte.lt); state = .scriptDataDoubleEscapedLessThanSign
            default: text.append(Byte.replacement)
            }
        case .cdataSection:
            guard let byte = takeTextRun(p, end, Byte.rbracket, 0, 0) else { return }
            if byte == 0 { emitNull() } else { state = .cdataSectionBracket }
        default:
            preconditionFailure("textRun in \(state)")
        }
    }

    /// The less-than-sign, end tag open and end tag name states of RCDATA, RAWTEXT, script
    /// data and script data escaped (§ 13.2.5.9–17, .23–25).
    mutating func endTagStep(_ c: UInt8) {
        switch state {
        case .rcdataLessThanSign, .rawtextLessThanSign:
            if c == Byte.slash {
                temp.clear()
                pos += 1
                state = state == .rcdataLessThanSign ? .rcdataEndTagOpen : .rawtextEndTagOpen
            } else {
                text.append(Byte.lt)
                state = state == .rcdataLessThanSign ? .rcdata : .rawtext
            }
        case .scriptDataLessThanSign:
            if c == Byte.slash {
                temp.clear()
                pos += 1
                state = .scriptDataEndTagOpen
            } else if c == Byte.bang {
                text.append([Byte.lt, Byte.bang])
                pos += 1
                state = .scriptDataEscapeStart
            } else {
                text.append(Byte.lt)
                state = .scriptData
            }
        case .scriptDataEscapedLessThanSign:
            if c == Byte.slash {
                temp.clear()
                pos += 1
                state = .scriptDataEscapedEndTagOpen
            } else if Byte.isAlpha(c) {
                temp.clear()
                text.append(Byte.lt)
                state = .scriptDataDoubleEscapeStart
            } else {
                text.append(Byte.lt)
                state = .scriptDataEscaped
            }
        case .rcdataEndTagOpen, .rawtextEndTagOpen, .scriptDataEndTagOpen, .scriptDataEscapedEndTagOpen:
            let (base, next): (TokenizerState, TokenizerState) = switch state {
            case .rcdataEndTagOpen: (.rcdata, .rcdataEndTagName)
            case .rawtextEndTagOpen: (.rawtext, .rawtextEndTagName)
            case .scriptDataEndTagOpen: (.scriptData, .scriptDataEndTagName)
            default: (.scriptDataEscaped, .scriptDataEscapedEndTagName)
            }
            if Byte.isAlpha(c) {
                startTag(isEnd: true)
                state = next
            } else {
                text.append([Byte.lt, Byte.slash])
                state = base
            }
        default:  // the four end tag name states
            if Byte.isAlpha(c) {
                tagName.append(Byte.lower(c))
                temp.append(c)
                pos += 1
            } else if isAppropriateEndTag && (Byte.isWhitespace(c) || c == Byte.slash || c == Byte.gt) {
                pos += 1
                if c == Byte.gt {
                    state = .data
                    emitTag()
                } else {
                    state = c == Byte.slash ? .selfClosingStartTag : .beforeAttributeName
                }
            } else {
                endTagNameAnythingElse()
            }
        }
    }

    /// "Anything else" of the end tag name states: emit `</` and the buffer, reconsume in the
    /// text state they came from.
    mutating func endTagNameAnythingElse() {
        text.append([Byte.lt, Byte.slash])
        text.append(temp)
        switch state {
        case .rcdataEndTagName: state = .rcdata
        case .rawtextEndTagName: state = .rawtext
        case .scriptDataEndTagName: state = .scriptData
        default: state = .scriptDataEscaped
        }
    }
}
