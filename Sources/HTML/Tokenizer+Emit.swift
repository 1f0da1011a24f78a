// Building and emitting tokens (§ 13.2.5: "emit the current tag token", etc.).

extension TokenizerCore {
    @inline(__always) mutating func appendText(_ p: UnsafePointer<UInt8>, _ from: Int, _ to: Int) {
        text.append(p + from, to - from)
    }

    /// A U+0000 emitted as a character (data and CDATA section states) is its own token, so
    /// that every character token is either all U+0000 or free of it: the tree builder tells
    /// them apart by the first byte instead of rescanning each run.
    mutating func emitNull() {
        flushText()
        deliver(.characters("\u{0}"))
    }

    mutating func flushText() {
        guard !text.isEmpty else { return }
        if rawTextMode {
            let buffer = text.buffer
            let result = builder?._withUnsafeGuaranteedRef { $0.processRawText(buffer) } ?? sink.processRawText(buffer)
            text.clear()
            apply(result)
            return
        }
        let s = shortStrings.string(text)
        text.clear()
        deliver(.characters(s))
    }

    // MARK: tags

    mutating func startTag(isEnd: Bool) {
        tagName.clear()
        tagIsEnd = isEnd
        selfClosing = false
        if !attributes.isEmpty { attributes = [] }  // the last tag token holds the old array
        attrActive = false
    }

    mutating func startAttribute() {
        commitAttribute()
        attrName.clear()
        attrValue.clear()
        attrActive = true
    }

    /// Adds the attribute under construction unless its name is a duplicate
    /// (§ 13.2.5.33: the later attribute is dropped).
    mutating func commitAttribute() {
        guard attrActive else { return }
        attrActive = false
        let name = names.string(attrName)
        // By index: a copy of each attribute for the comparison would cost reference counts.
        for i in attributes.indices where attributes[i].name == name { return }
        if attributes.isEmpty { attributes.reserveCapacity(4) }
        attributes.append(Attribute(name: name, value: shortStrings.string(attrValue)))
    }

    /// Emits the current tag. The caller has already set the next state, so that a switch
    /// requested by the sink wins.
    mutating func emitTag() {
        flushText()
        rawTextMode = false
        commitAttribute()
        let (name, id) = names.tagName(tagName)
        if tagIsEnd {
            deliver(.endTag(TagToken(name: name, nameID: id)))
        } else {
            lastStartTagName = name
            deliver(.startTag(TagToken(name: name, nameID: id, attributes: attributes, selfClosing: selfClosing)))
        }
    }

    /// "Appropriate end tag token": an end tag whose name matches the last start tag emitted.
    var isAppropriateEndTag: Bool {
        guard let last = lastStartTagName else { return false }
        return last.utf8.elementsEqual(tagName.buffer)
    }

    /// Hands a token to the sink, then applies the state switch the sink answered with.
    @inline(__always) mutating func deliver(_ token: Token) {
        if let builder {
            apply(builder._withUnsafeGuaranteedRef { $0.process(token) })
        } else {
            apply(sink.process(token))
        }
    }

    @inline(__always) mutating func apply(_ result: TokenSinkResult) {
        if case let .switchTo(next) = result {
            state = TokenizerState(next)
            rawTextMode = next == .scriptData || next == .rawtext
        }
    }

    // MARK: comments and doctypes

    mutating func emitComment() {
        flushText()
        deliver(.comment(commentData.string))
    }

    mutating func startDoctype() {
        doctypeName = nil
        doctypePublic = nil
        doctypeSystem = nil
        doctypeForceQuirks = false
    }

    mutating func emitDoctype() {
        flushText()
        let token = DoctypeToken(
            name: doctypeName.map { String(decoding: $0, as: UTF8.self) },
            publicIdentifier: doctypePublic.map { String(decoding: $0, as: UTF8.self) },
            systemIdentifier: doctypeSystem.map { String(decoding: $0, as: UTF8.self) },
            forceQuirks: doctypeForceQuirks)
        deliver(.doctype(token))
    }

    mutating func emitEOF() {
        flushText()
        deliver(.eof)
    }

    // MARK: character reference output

    /// "Flush code points consumed as a character reference": into the attribute value when
    /// the return state is an attribute value state, else as character tokens.
    mutating func flushCharRef(_ bytes: ByteRun) {
        if returnState.isAttributeValue {
            attrValue.append(bytes)
        } else {
            text.append(bytes)
        }
    }

    mutating func flushCharRef(_ bytes: [UInt8]) {
        if returnState.isAttributeValue {
            attrValue.append(bytes)
        } else {
            text.append(bytes)
        }
    }

    mutating func appendCharRefScalar(_ v: UInt32) {
        if returnState.isAttributeValue {
            attrValue.appendScalar(v)
        } else {
            text.appendScalar(v)
        }
    }

    static func appendUTF8(_ v: UInt32, to out: inout [UInt8]) {
        switch v {
        case 0..<0x80:
            out.append(UInt8(v))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | (v >> 6)))
            out.append(UInt8(0x80 | (v & 0x3F)))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | (v >> 12)))
            out.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (v & 0x3F)))
        default:
            out.append(UInt8(0xF0 | (v >> 18)))
            out.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (v & 0x3F)))
        }
    }
}
