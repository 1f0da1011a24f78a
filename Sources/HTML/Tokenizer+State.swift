// The tokenizer's states, one case per state of WHATWG HTML § 13.2.5.
// The "named character reference" and "ambiguous ampersand" states are folded into
// `characterReference` (see CharacterReference.swift for why that is equivalent).

enum TokenizerState: UInt8, Sendable {
    case data                                   // § 13.2.5.1 Data state
    case rcdata                                 // § 13.2.5.2 RCDATA state
    case rawtext                                // § 13.2.5.3 RAWTEXT state
    case scriptData                             // § 13.2.5.4 Script data state
    case plaintext                              // § 13.2.5.5 PLAINTEXT state
    case tagOpen                                // § 13.2.5.6 Tag open state
    case endTagOpen                             // § 13.2.5.7 End tag open state
    case tagName                                // § 13.2.5.8 Tag name state
    case rcdataLessThanSign                     // § 13.2.5.9
    case rcdataEndTagOpen                       // § 13.2.5.10
    case rcdataEndTagName                       // § 13.2.5.11
    case rawtextLessThanSign                    // § 13.2.5.12
    case rawtextEndTagOpen                      // § 13.2.5.13
    case rawtextEndTagName                      // § 13.2.5.14
    case scriptDataLessThanSign                 // § 13.2.5.15
    case scriptDataEndTagOpen                   // § 13.2.5.16
    case scriptDataEndTagName                   // § 13.2.5.17
    case scriptDataEscapeStart                  // § 13.2.5.18
    case scriptDataEscapeStartDash              // § 13.2.5.19
    case scriptDataEscaped                      // § 13.2.5.20
    case scriptDataEscapedDash                  // § 13.2.5.21
    case scriptDataEscapedDashDash              // § 13.2.5.22
    case scriptDataEscapedLessThanSign          // § 13.2.5.23
    case scriptDataEscapedEndTagOpen            // § 13.2.5.24
    case scriptDataEscapedEndTagName            // § 13.2.5.25
    case scriptDataDoubleEscapeStart            // § 13.2.5.26
    case scriptDataDoubleEscaped                // § 13.2.5.27
    case scriptDataDoubleEscapedDash            // § 13.2.5.28
    case scriptDataDoubleEscapedDashDash        // § 13.2.5.29
    case scriptDataDoubleEscapedLessThanSign    // § 13.2.5.30
    case scriptDataDoubleEscapeEnd              // § 13.2.5.31
    case beforeAttributeName                    // § 13.2.5.32
    case attributeName                          // § 13.2.5.33
    case afterAttributeName                     // § 13.2.5.34
    case beforeAttributeValue                   // § 13.2.5.35
    case attributeValueDoubleQuoted             // § 13.2.5.36
    case attributeValueSingleQuoted             // § 13.2.5.37
    case attributeValueUnquoted                 // § 13.2.5.38
    case afterAttributeValueQuoted              // § 13.2.5.39
    case selfClosingStartTag                    // § 13.2.5.40
    case bogusComment                           // § 13.2.5.41
    case markupDeclarationOpen                  // § 13.2.5.42
    case commentStart                           // § 13.2.5.43
    case commentStartDash                       // § 13.2.5.44
    case comment                                // § 13.2.5.45
    case commentLessThanSign                    // § 13.2.5.46
    case commentLessThanSignBang                // § 13.2.5.47
    case commentLessThanSignBangDash            // § 13.2.5.48
    case commentLessThanSignBangDashDash        // § 13.2.5.49
    case commentEndDash                         // § 13.2.5.50
    case commentEnd                             // § 13.2.5.51
    case commentEndBang                         // § 13.2.5.52
    case doctype                                // § 13.2.5.53
    case beforeDoctypeName                      // § 13.2.5.54
    case doctypeName                            // § 13.2.5.55
    case afterDoctypeName                       // § 13.2.5.56
    case afterDoctypePublicKeyword              // § 13.2.5.57
    case beforeDoctypePublicIdentifier          // § 13.2.5.58
    case doctypePublicIdentifierDoubleQuoted    // § 13.2.5.59
    case doctypePublicIdentifierSingleQuoted    // § 13.2.5.60
    case afterDoctypePublicIdentifier           // § 13.2.5.61
    case betweenDoctypePublicAndSystemIdentifiers // § 13.2.5.62
    case afterDoctypeSystemKeyword              // § 13.2.5.63
    case beforeDoctypeSystemIdentifier          // § 13.2.5.64
    case doctypeSystemIdentifierDoubleQuoted    // § 13.2.5.65
    case doctypeSystemIdentifierSingleQuoted    // § 13.2.5.66
    case afterDoctypeSystemIdentifier           // § 13.2.5.67
    case bogusDoctype                           // § 13.2.5.68
    case cdataSection                           // § 13.2.5.69
    case cdataSectionBracket                    // § 13.2.5.70
    case cdataSectionEnd                        // § 13.2.5.71
    case characterReference                     // § 13.2.5.72 (+ .73 named, .74 ambiguous ampersand)
    case numericCharacterReference              // § 13.2.5.75
    case hexadecimalCharacterReferenceStart     // § 13.2.5.76
    case decimalCharacterReferenceStart         // § 13.2.5.77
    case hexadecimalCharacterReference          // § 13.2.5.78
    case decimalCharacterReference              // § 13.2.5.79
    case numericCharacterReferenceEnd           // § 13.2.5.80

    init(_ content: TokenizerContentState) {
        switch content {
        case .data: self = .data
        case .rcdata: self = .rcdata
        case .rawtext: self = .rawtext
        case .scriptData: self = .scriptData
        case .plaintext: self = .plaintext
        }
    }

    /// The attribute value states, where character references flush into the value.
    var isAttributeValue: Bool {
        self == .attributeValueDoubleQuoted || self == .attributeValueSingleQuoted
            || self == .attributeValueUnquoted
    }
}

/// ASCII byte classes used by every state (input is UTF-8; CR was removed by preprocessing).
enum Byte {
    static let tab: UInt8 = 0x09, lf: UInt8 = 0x0A, ff: UInt8 = 0x0C, cr: UInt8 = 0x0D, space: UInt8 = 0x20
    static let bang: UInt8 = 0x21, quote: UInt8 = 0x22, hash: UInt8 = 0x23, amp: UInt8 = 0x26
    static let apos: UInt8 = 0x27, dash: UInt8 = 0x2D, slash: UInt8 = 0x2F, semicolon: UInt8 = 0x3B
    static let lt: UInt8 = 0x3C, eq: UInt8 = 0x3D, gt: UInt8 = 0x3E, question: UInt8 = 0x3F
    static let lbracket: UInt8 = 0x5B, rbracket: UInt8 = 0x5D, grave: UInt8 = 0x60
    static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]  // U+FFFD in UTF-8

    @inline(__always) static func isWhitespace(_ c: UInt8) -> Bool {
        c == space || c == lf || c == tab || c == ff
    }
    @inline(__always) static func isUpper(_ c: UInt8) -> Bool { c &- 0x41 < 26 }
    @inline(__always) static func isAlpha(_ c: UInt8) -> Bool { (c | 0x20) &- 0x61 < 26 }
    @inline(__always) static func isDigit(_ c: UInt8) -> Bool { c &- 0x30 < 10 }
    @inline(__always) static func isAlnum(_ c: UInt8) -> Bool { isAlpha(c) || isDigit(c) }
    @inline(__always) static func lower(_ c: UInt8) -> UInt8 { isUpper(c) ? c | 0x20 : c }
    @inline(__always) static func hexValue(_ c: UInt8) -> UInt32? {
        if isDigit(c) { return UInt32(c &- 0x30) }
        let l = c | 0x20
        if l &- 0x61 < 6 { return UInt32(l &- 0x61 &+ 10) }
        return nil
    }
}
