// The main loop: dispatch on the current state until the input runs out or a state needs
// more lookahead than is buffered; and the end-of-file rules of every state.

extension TokenizerCore {
    mutating func run(_ p: UnsafePointer<UInt8>, _ end: Int) {
        while pos < end {
            switch state {
            case .data, .rcdata, .rawtext, .plaintext, .scriptData, .cdataSection,
                 .scriptDataEscaped, .scriptDataDoubleEscaped:
                textRun(p, end)
            case .tagOpen, .endTagOpen, .tagName, .beforeAttributeName, .attributeName,
                 .afterAttributeName, .beforeAttributeValue, .attributeValueDoubleQuoted,
                 .attributeValueSingleQuoted, .attributeValueUnquoted, .afterAttributeValueQuoted,
                 .selfClosingStartTag:
                tagStep(p, end)
            case .rcdataLessThanSign, .rcdataEndTagOpen, .rcdataEndTagName,
                 .rawtextLessThanSign, .rawtextEndTagOpen, .rawtextEndTagName,
                 .scriptDataLessThanSign, .scriptDataEndTagOpen, .scriptDataEndTagName,
                 .scriptDataEscapedLessThanSign, .scriptDataEscapedEndTagOpen,
                 .scriptDataEscapedEndTagName:
                endTagStep(p[pos])
            case .scriptDataEscapeStart, .scriptDataEscapeStartDash, .scriptDataEscapedDash,
                 .scriptDataEscapedDashDash, .scriptDataDoubleEscapeStart,
                 .scriptDataDoubleEscapedDash, .scriptDataDoubleEscapedDashDash,
                 .scriptDataDoubleEscapedLessThanSign, .scriptDataDoubleEscapeEnd,
                 .cdataSectionBracket, .cdataSectionEnd:
                scriptStep(p[pos])
            case .markupDeclarationOpen:
                if !markupDeclarationOpen(p, end) { return }
            case .bogusComment, .commentStart, .commentStartDash, .comment, .commentLessThanSign,
                 .commentLessThanSignBang, .commentLessThanSignBangDash,
                 .commentLessThanSignBangDashDash, .commentEndDash, .commentEnd, .commentEndBang:
                commentStep(p, end)
            case .afterDoctypeName:
                if !afterDoctypeName(p, end) { return }
            case .doctype, .beforeDoctypeName, .doctypeName, .afterDoctypePublicKeyword,
                 .beforeDoctypePublicIdentifier, .doctypePublicIdentifierDoubleQuoted,
                 .doctypePublicIdentifierSingleQuoted, .afterDoctypePublicIdentifier,
                 .betweenDoctypePublicAndSystemIdentifiers, .afterDoctypeSystemKeyword,
                 .beforeDoctypeSystemIdentifier, .doctypeSystemIdentifierDoubleQuoted,
                 .doctypeSystemIdentifierSingleQuoted, .afterDoctypeSystemIdentifier, .bogusDoctype:
                doctypeStep(p[pos])
            case .characterReference:
                if !characterReference(p, end) { return }
            case .numericCharacterReference, .hexadecimalCharacterReferenceStart,
                 .decimalCharacterReferenceStart, .hexadecimalCharacterReference,
                 .decimalCharacterReference, .numericCharacterReferenceEnd:
                numericCharacterReferenceStep(p[pos])
            }
        }
    }

    /// Applies each state's "EOF" rule (after all input was consumed) until `.eof` is emitted.
    mutating func runEOF() {
        let lt = Byte.lt, slash = Byte.slash
        while true {
            switch state {
            case .data, .rcdata, .rawtext, .plaintext, .scriptData, .scriptDataEscaped,
                 .scriptDataEscapedDash, .scriptDataEscapedDashDash, .scriptDataDoubleEscaped,
                 .scriptDataDoubleEscapedDash, .scriptDataDoubleEscapedDashDash, .cdataSection,
                 .tagName, .beforeAttributeName, .attributeName, .afterAttributeName,
                 .beforeAttributeValue, .attributeValueDoubleQuoted, .attributeValueSingleQuoted,
                 .attributeValueUnquoted, .afterAttributeValueQuoted, .selfClosingStartTag:
                emitEOF()
                return
            case .tagOpen: text.append(lt); state = .data
            case .endTagOpen: text.append([lt, slash]); state = .data
            case .rcdataLessThanSign: text.append(lt); state = .rcdata
            case .rawtextLessThanSign: text.append(lt); state = .rawtext
            case .scriptDataLessThanSign: text.append(lt); state = .scriptData
            case .scriptDataEscapedLessThanSign: text.append(lt); state = .scriptDataEscaped
            case .rcdataEndTagOpen: text.append([lt, slash]); state = .rcdata
            case .rawtextEndTagOpen: text.append([lt, slash]); state = .rawtext
            case .scriptDataEndTagOpen: text.append([lt, slash]); state = .scriptData
            case .scriptDataEscapedEndTagOpen:
                text.append([lt, slash]); state = .scriptDataEscaped
            case .rcdataEndTagName, .rawtextEndTagName, .scriptDataEndTagName,
                 .scriptDataEscapedEndTagName:
                endTagNameAnythingElse()
            case .scriptDataEscapeStart, .scriptDataEscapeStartDash: state = .scriptData
            case .scriptDataDoubleEscapeStart: state = .scriptDataEscaped
            case .scriptDataDoubleEscapedLessThanSign, .scriptDataDoubleEscapeEnd:
                state = .scriptDataDoubleEscaped
            case .markupDeclarationOpen:
                commentData.clear()
                state = .bogusComment
            case .bogusComment, .commentStart, .commentStartDash, .comment, .commentLessThanSign,
                 .commentLessThanSignBang, .commentLessThanSignBangDash,
                 .commentLessThanSignBangDashDash, .commentEndDash, .commentEnd, .commentEndBang:
                emitComment()
                emitEOF()
                return
            case .doctype, .beforeDoctypeName:
                startDoctype()
                doctypeForceQuirks = true
                emitDoctype()
                emitEOF()
                return
            case .doctypeName, .afterDoctypeName, .afterDoctypePublicKeyword,
                 .beforeDoctypePublicIdentifier, .doctypePublicIdentifierDoubleQuoted,
                 .doctypePublicIdentifierSingleQuoted, .afterDoctypePublicIdentifier,
                 .betweenDoctypePublicAndSystemIdentifiers, .afterDoctypeSystemKeyword,
                 .beforeDoctypeSystemIdentifier, .doctypeSystemIdentifierDoubleQuoted,
                 .doctypeSystemIdentifierSingleQuoted, .afterDoctypeSystemIdentifier:
                doctypeForceQuirks = true
                emitDoctype()
                emitEOF()
                return
            case .bogusDoctype:
                emitDoctype()
                emitEOF()
                return
            case .cdataSectionBracket:
                text.append(Byte.rbracket); state = .cdataSection
            case .cdataSectionEnd:
                text.append([Byte.rbracket, Byte.rbracket]); state = .cdataSection
            case .characterReference:
                flushCharRef([Byte.amp]); state = returnState
            case .numericCharacterReference, .hexadecimalCharacterReferenceStart,
                 .decimalCharacterReferenceStart:
                flushCharRef(temp); state = returnState
            case .hexadecimalCharacterReference, .decimalCharacterReference,
                 .numericCharacterReferenceEnd:
                numericCharacterReferenceEnd()
            }
        }
    }
}
