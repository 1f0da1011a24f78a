// Fuzz harness: the tokenizer fed the whole input at once and fed the same input in two
// chunks (split at a byte position taken from the first two bytes) must emit the same
// tokens. The sink switches content states after raw-text start tags so those states run too.

final class RecordingSink: TokenSink {
    weak var tokenizer: Tokenizer?
    var tokens: [Token] = []
    var adjustedCurrentNodeIsForeign: Bool { foreign }
    var foreign = false

    func process(_ token: Token) {
        if case .characters(let text) = token, case .characters(let previous)? = tokens.last {
            tokens[tokens.count - 1] = .characters(previous + text)
            return
        }
        tokens.append(token)
        guard case .startTag(let tag) = token else { return }
        switch tag.name {
        case "script": tokenizer?.switchTo(.scriptData)
        case "style", "xmp", "iframe", "noembed", "noframes": tokenizer?.switchTo(.rawtext)
        case "title", "textarea": tokenizer?.switchTo(.rcdata)
        case "plaintext": tokenizer?.switchTo(.plaintext)
        case "svg", "math": foreign = true
        default: break
        }
    }
}

func tokenize(_ chunks: [ArraySlice<UInt8>]) -> [Token] {
    let sink = RecordingSink()
    let tokenizer = Tokenizer(sink: sink)
    sink.tokenizer = tokenizer
    for chunk in chunks { tokenizer.feed(Array(chunk)) }
    tokenizer.finish()
    return sink.tokens
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTokenizer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 2 else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data + 2, count: size - 2), as: UTF8.self)
    let input = Array(text.utf8)
    let split = input.isEmpty ? 0 : (Int(data[0]) << 8 | Int(data[1])) % (input.count + 1)
    let whole = tokenize([input[...]])
    let chunked = tokenize([input[..<split], input[split...]])
    if whole != chunked {
        FuzzReport.mismatch("tokens, split at \(split)", "\(whole)", "\(chunked)")
    }
    return 0
}
