// Comment states: § 13.2.5.41 Bogus comment, .42 Markup declaration open, .43–52 comments.

extension TokenizerCore {
    private static let doctypeWord: [UInt8] = Array("doctype".utf8)
    private static let cdataWord: [UInt8] = Array("[CDATA[".utf8)

    /// Compares p[pos...] with `word` (ASCII case-insensitively if asked). Returns nil when
    /// the buffered input is a proper prefix of `word` and more input may still come.
    func lookahead(_ p: UnsafePointer<UInt8>, _ end: Int, _ word: [UInt8], caseInsensitive: Bool) -> Bool? {
        var k = 0
        while k < word.count {
            if pos + k == end { return atEOF ? false : nil }
            let c = caseInsensitive ? Byte.lower(p[pos + k]) : p[pos + k]
            if c != word[k] { return false }
            k += 1
        }
        return true
    }

    /// § 13.2.5.42. Returns false to wait for more input.
    mutating func markupDeclarationOpen(_ p: UnsafePointer<UInt8>, _ end: Int) -> Bool {
        if p[pos] == Byte.dash {
            if pos + 1 == end { if !atEOF { return false } }
            else if p[pos + 1] == Byte.dash {
                pos += 2
                commentData.clear()
                state = .commentStart
                return true
            }
        } else if Byte.lower(p[pos]) == 0x64 {  // "d"
            guard let isDoctype = lookahead(p, end, TokenizerCore.doctypeWord, caseInsensitive: true) else { return false }
            if isDoctype { pos += 7; state = .doctype; return true }
        } else if p[pos] == Byte.lbracket {
            guard let isCDATA = lookahead(p, end, TokenizerCore.cdataWord, caseInsensitive: false) else { return false }
            if isCDATA {
                pos += 7
                if sink.adjustedCurrentNodeIsForeign {
                    state = .cdataSection
                } else {
                    commentData.clear()
                    commentData.append(TokenizerCore.cdataWord)
                    state = .bogusComment
                }
                return true
            }
        }
        commentData.clear()
        state = .bogusComment
        return true
    }

    mutating func commentStep(_ p: UnsafePointer<UInt8>, _ end: Int) {
        let c = p[pos]
        switch state {
        case .bogusComment:  // § 13.2.5.41
            let i = scan(p, pos, end, Byte.gt, 0, 0)
            if i > pos { commentData.append(p + pos, i - pos) }
            pos = i
            guard i < end else { return }
            pos += 1
            if p[i] == Byte.gt {
                state = .data; emitComment()
            } else {
                commentData.append(Byte.replacement)
            }
        case .commentStart:  // § 13.2.5.43
            if c == Byte.dash {
                pos += 1; state = .commentStartDash
            } else if c == Byte.gt {
                pos += 1; state = .data; emitComment()
            } else {
                state = .comment
            }
        case .commentStartDash:  // § 13.2.5.44
            if c == Byte.dash {
                pos += 1; state = .commentEnd
            } else if c == Byte.gt {
                pos += 1; state = .data; emitComment()
            } else {
                commentData.append(Byte.dash); state = .comment
            }
        case .comment:  // § 13.2.5.45
            let i = scan(p, pos, end, Byte.lt, Byte.dash, 0)
            if i > pos { commentData.append(p + pos, i - pos) }
            pos = i
            guard i < end else { return }
            pos += 1
            switch p[i] {
            case Byte.lt: commentData.append(Byte.lt); state = .commentLessThanSign
            case Byte.dash: state = .commentEndDash
            default: commentData.append(Byte.replacement)
            }
        case .commentLessThanSign:  // § 13.2.5.46
            if c == Byte.bang {
                commentData.append(c); pos += 1; state = .commentLessThanSignBang
            } else if c == Byte.lt {
                commentData.append(c); pos += 1
            } else {
                state = .comment
            }
        case .commentLessThanSignBang:  // § 13.2.5.47
            if c == Byte.dash { pos += 1; state = .commentLessThanSignBangDash } else { state = .comment }
        case .commentLessThanSignBangDash:  // § 13.2.5.48
            if c == Byte.dash { pos += 1; state = .commentLessThanSignBangDashDash } else { state = .commentEndDash }
        case .commentLessThanSignBangDashDash:  // § 13.2.5.49 (both branches reconsume in comment end)
            state = .commentEnd
        case .commentEndDash:  // § 13.2.5.50
            if c == Byte.dash {
                pos += 1; state = .commentEnd
            } else {
                commentData.append(Byte.dash); state = .comment
            }
        case .commentEnd:  // § 13.2.5.51
            if c == Byte.gt {
                pos += 1; state = .data; emitComment()
            } else if c == Byte.bang {
                pos += 1; state = .commentEndBang
            } else if c == Byte.dash {
                commentData.append(Byte.dash); pos += 1
            } else {
                commentData.append([Byte.dash, Byte.dash]); state = .comment
            }
        case .commentEndBang:  // § 13.2.5.52
            if c == Byte.dash {
                commentData.append([Byte.dash, Byte.dash, Byte.bang]); pos += 1; state = .commentEndDash
            } else if c == Byte.gt {
                pos += 1; state = .data; emitComment()
            } else {
                commentData.append([Byte.dash, Byte.dash, Byte.bang]); state = .comment
            }
        default:
            preconditionFailure("commentStep in \(state)")
        }
    }
}
