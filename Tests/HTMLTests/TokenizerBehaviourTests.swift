import PiperTestSupport
import Testing
import HTML

/// A sink that plays a tiny tree builder: switches to RCDATA/RAWTEXT/script data/PLAINTEXT
/// after the matching start tags, and reports foreign content inside <svg>.
private final class SwitchingSink: TokenSink {
    var tokens: [Token] = []
    var inSVG = false
    var adjustedCurrentNodeIsForeign: Bool { inSVG }

    func process(_ token: Token) -> TokenSinkResult {
        if case .characters(let s) = token, case .characters(let prev)? = tokens.last {
            tokens[tokens.count - 1] = .characters(prev + s)
            return .continue
        }
        tokens.append(token)
        switch token {
        case .startTag(let t):
            switch t.name {
            case "title", "textarea": return .switchTo(.rcdata)
            case "style", "xmp": return .switchTo(.rawtext)
            case "script": return .switchTo(.scriptData)
            case "plaintext": return .switchTo(.plaintext)
            case "svg": inSVG = true
            default: break
            }
        case .endTag(let t) where t.name == "svg": inSVG = false
        default: break
        }
        return .continue
    }
}

private func tokenize(_ chunks: [String]) -> [Token] {
    let sink = SwitchingSink()
    let tokenizer = Tokenizer(sink: sink)
    for chunk in chunks { tokenizer.feed(chunk) }
    tokenizer.finish()
    return sink.tokens
}

@Suite(.ownThread) struct TokenizerBehaviourTests {
    @Test func switchFromSinkTakesEffectForTheNextCharacter() {
        let tokens = tokenize(["<title>a <b> &amp; </title><p>"])
        #expect(tokens == [
            .startTag(TagToken(name: "title")), .characters("a <b> & "),
            .endTag(TagToken(name: "title")), .startTag(TagToken(name: "p")), .eof,
        ])
    }

    @Test func scriptDataKeepsMarkupAndEntitiesAsText() {
        let tokens = tokenize(["<script>if (a<b && c) x='</scr'+'ipt>';</script>"])
        #expect(tokens == [
            .startTag(TagToken(name: "script")), .characters("if (a<b && c) x='</scr'+'ipt>';"),
            .endTag(TagToken(name: "script")), .eof,
        ])
    }

    @Test func plaintextNeverEnds() {
        let tokens = tokenize(["<plaintext>", "</plaintext><b>"])
        #expect(tokens == [.startTag(TagToken(name: "plaintext")), .characters("</plaintext><b>"), .eof])
    }

    @Test func carriageReturnsBecomeLineFeedsAcrossChunks() {
        #expect(tokenize(["a\r", "\nb\r", "c\r"]) == [.characters("a\nb\nc\n"), .eof])
        #expect(tokenize(["<p title='x\r", "\ny'>"]) == [
            .startTag(TagToken(name: "p", attributes: [Attribute(name: "title", value: "x\ny")])), .eof,
        ])
    }

    @Test func cdataIsTextOnlyInForeignContent() {
        let tokens = tokenize(["<svg><![CDATA[a<b]]></svg><![CDATA[x]]>"])
        #expect(tokens == [
            .startTag(TagToken(name: "svg")), .characters("a<b"), .endTag(TagToken(name: "svg")),
            .comment("[CDATA[x]]"), .eof,
        ])
    }

    @Test func lastStartTagNameIsSetByStartTagsAndDrivesEndTagMatching() {
        let sink = SwitchingSink()
        let tokenizer = Tokenizer(sink: sink)
        #expect(tokenizer.lastStartTagName == nil)
        tokenizer.feed("<DIV class=a>")
        #expect(tokenizer.lastStartTagName == "div")
        // Fragment parsing: a textarea context element.
        let fragment = Tokenizer(sink: sink)
        fragment.setInitialState(.rcdata)
        fragment.lastStartTagName = "textarea"
        sink.tokens = []
        fragment.feed("x</div></textarea>y")
        fragment.finish()
        #expect(sink.tokens == [.characters("x</div>"), .endTag(TagToken(name: "textarea")), .characters("y"), .eof])
    }

    @Test func namedReferencesSplitAcrossChunksAndAttributeRule() {
        #expect(tokenize(["I'm &no", "tit; &not", "in; ok"]) == [.characters("I'm ¬it; ∉ ok"), .eof])
        #expect(tokenize(["<a href='?x=1&amp", "=2&copy;&copy'>"]) == [
            .startTag(TagToken(name: "a", attributes: [Attribute(name: "href", value: "?x=1&amp=2©©")])), .eof,
        ])
    }

    @Test func duplicateAttributesKeepTheFirst() {
        #expect(tokenize(["<a X=1 x=2 y>"]) == [
            .startTag(TagToken(name: "a", attributes: [Attribute(name: "x", value: "1"), Attribute(name: "y", value: "")])), .eof,
        ])
    }
}
