// Building and emitting tokens (§ 13.2.5: "emit the current tag token", etc.).

extension Tokenizer {
    @inline(__always) func appendText(_ p: UnsafePointer<UInt8>, _ from: Int, _ to: Int) {
        if to > from { text.append(contentsOf: UnsafeBufferPointer(start: p + from, count: to - from)) }
    }

    func flushText() {
        guard !text.isEmpty else { return }
        let s = String(decoding: text, as: UTF8.self)
        text.removeAll(keepingCapacity: true)
        sink.process(.characters(s))
    }

    // MARK: tags

    func startTag(isEnd: Bool) {
        tagName.removeAll(keepingCapacity: true)
        tagIsEnd = isEnd
        selfClosing = false
        attributes.removeAll(keepingCapacity: true)
        attrActive = false
    }

    func startAttribute() {
        commitAttribute()
        attrName.removeAll(keepingCapacity: true)
        attrValue.removeAll(keepingCapacity: true)
        attrActive = true
    }

    /// Adds the attribute under construction unless its name is a duplicate
    /// (§ 13.2.5.33: the later attribute is dropped).
    func commitAttribute() {
        guard attrActive else { return }
        attrActive = false
        let name = TokenNames.string(attrName)
        for a in attributes where a.name == name { return }
        attributes.append(Attribute(name: name, value: String(decoding: attrValue, as: UTF8.self)))
    }

    /// Emits the current tag. The caller has already set the next state, so that a switch
    /// requested by the sink wins.
    func emitTag() {
        flushText()
        commitAttribute()
        let name = TokenNames.string(tagName)
        if tagIsEnd {
            sink.process(.endTag(TagToken(name: name)))
        } else {
            lastStartTag = tagName
            hasLastStartTag = true
            sink.process(.startTag(TagToken(name: name, attributes: attributes, selfClosing: selfClosing)))
        }
    }

    /// "Appropriate end tag token": an end tag whose name matches the last start tag emitted.
    var isAppropriateEndTag: Bool {
        hasLastStartTag && tagName == lastStartTag
    }

    // MARK: comments and doctypes

    func emitComment() {
        flushText()
        sink.process(.comment(String(decoding: commentData, as: UTF8.self)))
    }

    func startDoctype() {
        doctypeName = nil
        doctypePublic = nil
        doctypeSystem = nil
        doctypeForceQuirks = false
    }

    func emitDoctype() {
        flushText()
        let token = DoctypeToken(
            name: doctypeName.map { String(decoding: $0, as: UTF8.self) },
            publicIdentifier: doctypePublic.map { String(decoding: $0, as: UTF8.self) },
            systemIdentifier: doctypeSystem.map { String(decoding: $0, as: UTF8.self) },
            forceQuirks: doctypeForceQuirks)
        sink.process(.doctype(token))
    }

    func emitEOF() {
        flushText()
        sink.process(.eof)
    }

    // MARK: character reference output

    /// "Flush code points consumed as a character reference": into the attribute value when
    /// the return state is an attribute value state, else as character tokens.
    func flushCharRef(_ bytes: [UInt8]) {
        if returnState.isAttributeValue {
            attrValue.append(contentsOf: bytes)
        } else {
            text.append(contentsOf: bytes)
        }
    }

    func appendCharRefScalar(_ v: UInt32) {
        if returnState.isAttributeValue {
            Tokenizer.appendUTF8(v, to: &attrValue)
        } else {
            Tokenizer.appendUTF8(v, to: &text)
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
