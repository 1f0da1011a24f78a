// Tag states: § 13.2.5.6 Tag open … § 13.2.5.40 Self-closing start tag (except the
// RCDATA/RAWTEXT/script end tag states, in Tokenizer+Text.swift).

extension TokenizerCore {
    mutating func tagStep(_ p: UnsafePointer<UInt8>, _ end: Int) {
        let c = p[pos]
        switch state {
        case .tagOpen:  // § 13.2.5.6
            if c == Byte.bang {
                pos += 1; state = .markupDeclarationOpen
            } else if c == Byte.slash {
                pos += 1; state = .endTagOpen
            } else if Byte.isAlpha(c) {
                startTag(isEnd: false); state = .tagName
                tagName(p, end)
            } else if c == Byte.question {
                commentData.clear(); state = .bogusComment
            } else {
                text.append(Byte.lt); state = .data
            }
        case .endTagOpen:  // § 13.2.5.7
            if Byte.isAlpha(c) {
                startTag(isEnd: true); state = .tagName
                tagName(p, end)
            } else if c == Byte.gt {
                pos += 1; state = .data
            } else {
                commentData.clear(); state = .bogusComment
            }
        case .tagName:  // § 13.2.5.8
            tagName(p, end)
        case .beforeAttributeName:  // § 13.2.5.32
            beforeAttributeName(p, end)
        case .attributeName:  // § 13.2.5.33
            attributeNameRun(p, end)
        case .afterAttributeName:  // § 13.2.5.34
            if Byte.isWhitespace(c) {
                pos += 1
            } else if c == Byte.slash {
                pos += 1; state = .selfClosingStartTag
            } else if c == Byte.eq {
                pos += 1; state = .beforeAttributeValue
            } else if c == Byte.gt {
                pos += 1; state = .data; emitTag()
            } else {
                startAttribute(); state = .attributeName
            }
        case .beforeAttributeValue:  // § 13.2.5.35
            if Byte.isWhitespace(c) {
                pos += 1
            } else if c == Byte.quote {
                pos += 1; state = .attributeValueDoubleQuoted
            } else if c == Byte.apos {
                pos += 1; state = .attributeValueSingleQuoted
            } else if c == Byte.gt {
                pos += 1; state = .data; emitTag()
            } else {
                state = .attributeValueUnquoted
            }
        case .attributeValueDoubleQuoted, .attributeValueSingleQuoted:  // § 13.2.5.36, .37
            let q = state == .attributeValueDoubleQuoted ? Byte.quote : Byte.apos
            let i = scan(p, pos, end, q, Byte.amp, 0)
            if i > pos { attrValue.append(p + pos, i - pos) }
            pos = i
            guard i < end else { return }
            pos += 1
            switch p[i] {
            case q: afterAttributeValueQuoted(p, end)
            case Byte.amp: returnState = state; state = .characterReference
            default: attrValue.append(Byte.replacement)
            }
        case .attributeValueUnquoted:  // § 13.2.5.38
            pos += 1
            if Byte.isWhitespace(c) {
                state = .beforeAttributeName
            } else if c == Byte.amp {
                returnState = .attributeValueUnquoted; state = .characterReference
            } else if c == Byte.gt {
                state = .data; emitTag()
            } else if c == 0 {
                attrValue.append(Byte.replacement)
            } else {
                attrValue.append(c)
            }
        case .afterAttributeValueQuoted:  // § 13.2.5.39
            if Byte.isWhitespace(c) {
                pos += 1; state = .beforeAttributeName
            } else if c == Byte.slash {
                pos += 1; state = .selfClosingStartTag
            } else if c == Byte.gt {
                pos += 1; state = .data; emitTag()
            } else {
                state = .beforeAttributeName
            }
        case .selfClosingStartTag:  // § 13.2.5.40
            if c == Byte.gt {
                selfClosing = true; pos += 1; state = .data; emitTag()
            } else {
                state = .beforeAttributeName
            }
        default:
            preconditionFailure("tagStep in \(state)")
        }
    }

    /// § 13.2.5.8 Tag name state, a run at a time.
    private mutating func tagNameRun(_ p: UnsafePointer<UInt8>, _ end: Int) {
        var i = pos
        while i < end {
            let c = p[i]
            if Byte.isWhitespace(c) {
                state = .beforeAttributeName; i += 1; break
            } else if c == Byte.slash {
                state = .selfClosingStartTag; i += 1; break
            } else if c == Byte.gt {
                pos = i + 1; state = .data; emitTag(); return
            } else if c == 0 {
                tagName.append(Byte.replacement)
            } else {
                tagName.append(Byte.lower(c))
            }
            i += 1
        }
        pos = i
    }

    /// § 13.2.5.8 Tag name state (reconsuming the first letter after tag open), going on
    /// into the before attribute name state when the name ends with a space.
    @inline(__always) private mutating func tagName(_ p: UnsafePointer<UInt8>, _ end: Int) {
        tagNameRun(p, end)
        if state == .beforeAttributeName && pos < end { beforeAttributeName(p, end) }
    }

    /// § 13.2.5.32 Before attribute name state: skips the whitespace and reconsumes the next
    /// byte in the attribute name state here rather than through the main loop.
    private mutating func beforeAttributeName(_ p: UnsafePointer<UInt8>, _ end: Int) {
        var c = p[pos]
        while Byte.isWhitespace(c) {
            pos += 1
            guard pos < end else { return }
            c = p[pos]
        }
        if c == Byte.slash || c == Byte.gt {
            state = .afterAttributeName
        } else if c == Byte.eq {
            startAttribute(); attrName.append(c); pos += 1; state = .attributeName
        } else {
            startAttribute(); state = .attributeName
            attributeNameRun(p, end)
        }
    }

    /// The closing quote of a value was consumed: § 13.2.5.39 After attribute value (quoted)
    /// state applied to the next byte at once, when the chunk has it (after a value comes a
    /// space, `>` or `/` nearly always).
    @inline(__always) private mutating func afterAttributeValueQuoted(_ p: UnsafePointer<UInt8>, _ end: Int) {
        guard pos < end else { state = .afterAttributeValueQuoted; return }
        let next = p[pos]
        if Byte.isWhitespace(next) {
            pos += 1; state = .beforeAttributeName
        } else if next == Byte.gt {
            pos += 1; state = .data; emitTag()
        } else if next == Byte.slash {
            pos += 1; state = .selfClosingStartTag
        } else {
            state = .beforeAttributeName
        }
    }

    /// § 13.2.5.33 Attribute name state, a run at a time.
    private mutating func attributeNameRun(_ p: UnsafePointer<UInt8>, _ end: Int) {
        var i = pos
        while i < end {
            let c = p[i]
            if Byte.isWhitespace(c) || c == Byte.slash || c == Byte.gt {
                state = .afterAttributeName; break
            } else if c == Byte.eq {
                // § 13.2.5.35 Before attribute value state for a quote right after the `=`.
                i += 1
                if i < end && p[i] == Byte.quote {
                    state = .attributeValueDoubleQuoted; i += 1
                } else if i < end && p[i] == Byte.apos {
                    state = .attributeValueSingleQuoted; i += 1
                } else {
                    state = .beforeAttributeValue
                }
                break
            } else if c == 0 {
                attrName.append(Byte.replacement)
            } else {
                attrName.append(Byte.lower(c))
            }
            i += 1
        }
        pos = i
    }
}
