// DOCTYPE states: § 13.2.5.53 DOCTYPE … § 13.2.5.68 Bogus DOCTYPE. One input byte per call,
// except the identifiers, which are short.

extension TokenizerCore {
    private static let publicWord: [UInt8] = Array("public".utf8)
    private static let systemWord: [UInt8] = Array("system".utf8)

    /// § 13.2.5.56 After DOCTYPE name state; needs six bytes of lookahead. False = wait.
    mutating func afterDoctypeName(_ p: UnsafePointer<UInt8>, _ end: Int) -> Bool {
        let c = p[pos]
        if Byte.isWhitespace(c) {
            pos += 1
        } else if c == Byte.gt {
            pos += 1; state = .data; emitDoctype()
        } else {
            let lc = Byte.lower(c)
            let word = lc == 0x70 ? TokenizerCore.publicWord : (lc == 0x73 ? TokenizerCore.systemWord : nil)
            if let word {
                guard let matched = lookahead(p, end, word, caseInsensitive: true) else { return false }
                if matched {
                    pos += 6
                    state = lc == 0x70 ? .afterDoctypePublicKeyword : .afterDoctypeSystemKeyword
                    return true
                }
            }
            doctypeForceQuirks = true
            state = .bogusDoctype
        }
        return true
    }

    mutating func doctypeStep(_ c: UInt8) {
        switch state {
        case .doctype:  // § 13.2.5.53
            if Byte.isWhitespace(c) { pos += 1 }
            state = .beforeDoctypeName
        case .beforeDoctypeName:  // § 13.2.5.54
            if Byte.isWhitespace(c) { pos += 1; return }
            startDoctype()
            pos += 1
            if c == Byte.gt {
                doctypeForceQuirks = true; state = .data; emitDoctype()
            } else {
                doctypeName = c == 0 ? Byte.replacement : [Byte.lower(c)]
                state = .doctypeName
            }
        case .doctypeName:  // § 13.2.5.55
            pos += 1
            if Byte.isWhitespace(c) {
                state = .afterDoctypeName
            } else if c == Byte.gt {
                state = .data; emitDoctype()
            } else if c == 0 {
                doctypeName?.append(contentsOf: Byte.replacement)
            } else {
                doctypeName?.append(Byte.lower(c))
            }
        case .afterDoctypePublicKeyword, .afterDoctypeSystemKeyword:  // § 13.2.5.57, .63
            let isPublic = state == .afterDoctypePublicKeyword
            if Byte.isWhitespace(c) {
                pos += 1
                state = isPublic ? .beforeDoctypePublicIdentifier : .beforeDoctypeSystemIdentifier
            } else {
                identifierStart(c, isPublic: isPublic)
            }
        case .beforeDoctypePublicIdentifier, .beforeDoctypeSystemIdentifier:  // § 13.2.5.58, .64
            if Byte.isWhitespace(c) {
                pos += 1
            } else {
                identifierStart(c, isPublic: state == .beforeDoctypePublicIdentifier)
            }
        case .doctypePublicIdentifierDoubleQuoted, .doctypePublicIdentifierSingleQuoted,
             .doctypeSystemIdentifierDoubleQuoted, .doctypeSystemIdentifierSingleQuoted:  // § 13.2.5.59, .60, .65, .66
            let isPublic = state == .doctypePublicIdentifierDoubleQuoted || state == .doctypePublicIdentifierSingleQuoted
            let quote = (state == .doctypePublicIdentifierDoubleQuoted || state == .doctypeSystemIdentifierDoubleQuoted)
                ? Byte.quote : Byte.apos
            pos += 1
            if c == quote {
                state = isPublic ? .afterDoctypePublicIdentifier : .afterDoctypeSystemIdentifier
            } else if c == Byte.gt {
                doctypeForceQuirks = true; state = .data; emitDoctype()
            } else {
                let bytes: [UInt8] = c == 0 ? Byte.replacement : [c]
                if isPublic { doctypePublic?.append(contentsOf: bytes) } else { doctypeSystem?.append(contentsOf: bytes) }
            }
        case .afterDoctypePublicIdentifier, .betweenDoctypePublicAndSystemIdentifiers:  // § 13.2.5.61, .62
            if Byte.isWhitespace(c) {
                pos += 1
                state = .betweenDoctypePublicAndSystemIdentifiers
            } else if c == Byte.gt {
                pos += 1; state = .data; emitDoctype()
            } else {
                identifierStart(c, isPublic: false)
            }
        case .afterDoctypeSystemIdentifier:  // § 13.2.5.67
            if Byte.isWhitespace(c) {
                pos += 1
            } else if c == Byte.gt {
                pos += 1; state = .data; emitDoctype()
            } else {
                state = .bogusDoctype  // no force-quirks here
            }
        case .bogusDoctype:  // § 13.2.5.68
            pos += 1
            if c == Byte.gt { state = .data; emitDoctype() }
        default:
            preconditionFailure("doctypeStep in \(state)")
        }
    }

    /// The shared tail of the states before an identifier: a quote opens it, `>` ends the
    /// DOCTYPE with force-quirks, anything else is bogus.
    private mutating func identifierStart(_ c: UInt8, isPublic: Bool) {
        if c == Byte.quote || c == Byte.apos {
            pos += 1
            if isPublic {
                doctypePublic = []
                state = c == Byte.quote ? .doctypePublicIdentifierDoubleQuoted : .doctypePublicIdentifierSingleQuoted
            } else {
                doctypeSystem = []
                state = c == Byte.quote ? .doctypeSystemIdentifierDoubleQuoted : .doctypeSystemIdentifierSingleQuoted
            }
        } else if c == Byte.gt {
            pos += 1; doctypeForceQuirks = true; state = .data; emitDoctype()
        } else {
            doctypeForceQuirks = true; state = .bogusDoctype
        }
    }
}
