// § 13.2.6.4.4 "in head", a `meta` start tag: with a tentative confidence, a charset the
// element declares changes the encoding (§ 13.2.3.4). `DocumentParser` carries the change
// out by decoding the input again from the start.

extension TreeBuilder {
    func metaMayChangeEncoding(_ tag: TagToken) {
        var declared: String? = nil
        if let charset = tag.attributes.first(where: { $0.name == "charset" }) {
            declared = InputDecoder.encoding(forLabel: charset.value)
        } else if let equiv = tag.attributes.first(where: { $0.name == "http-equiv" }),
                  asciiLowercased(equiv.value) == "content-type",
                  let content = tag.attributes.first(where: { $0.name == "content" }),
                  let label = InputDecoder.extractCharset(Array(asciiLowercased(content.value).utf8)) {
            declared = InputDecoder.encoding(forLabel: label)
        }
        guard var encoding = declared, let current = tentativeEncoding else { return }
        changeTheEncoding: do {
            // 1. UTF-16 input stays: the confidence becomes certain.
            if current == "utf-16le" || current == "utf-16be" { break changeTheEncoding }
            // 2-3. A UTF-16 label means UTF-8 (the bytes are ASCII-compatible); x-user-defined means windows-1252.
            if encoding == "utf-16le" || encoding == "utf-16be" { encoding = "utf-8" }
            if encoding == "x-user-defined" { encoding = "windows-1252" }
            // 4. The same encoding: certain.
            if encoding == current { break changeTheEncoding }
            // 6. Otherwise parse again from the start with the new encoding, certain.
            requestedEncoding = encoding
            stopped = true
        }
        tentativeEncoding = nil
    }
}
