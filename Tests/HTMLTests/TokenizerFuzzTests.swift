import PiperTestSupport
import Testing
import HTML

/// Deterministic random documents built from the tokenizer's trickiest fragments: tokenized
/// in one piece and one byte at a time, with a sink that switches content states as a tree
/// builder would. Both runs must give the same tokens (and not crash).
@Suite(.ownThread) struct TokenizerFuzzTests {
    private static let fragments = [
        "<", ">", "</", "/>", "&", "amp", "amp;", "not", "notin;", "&#", "&#x", "1F600", "128", ";",
        "<!--", "--", "-", "!", "<!DOCTYPE", " PUBLIC ", " SYSTEM ", "<![CDATA[", "]]", "]]>", "?",
        "<script>", "</script>", "<title>", "</title>", "<plaintext>", "<style>", "</style>", "<svg>",
        "</svg>", "<a b='", "\"", "'", "=", " ", "\r", "\n", "\r\n", "\0", "x", "é", "日本", "<!--<script>",
    ]

    /// A small linear congruential generator, so failures reproduce.
    private struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    private final class StateSwitchingCollector: TokenSink {
        let collector = TokenCollector()
        var foreign = false
        var adjustedCurrentNodeIsForeign: Bool { foreign }
        func process(_ token: Token) -> TokenSinkResult {
            collector.process(token)
            switch token {
            case .startTag(let t):
                switch t.name {
                case "script": return .switchTo(.scriptData)
                case "title": return .switchTo(.rcdata)
                case "style": return .switchTo(.rawtext)
                case "plaintext": return .switchTo(.plaintext)
                case "svg": foreign = true
                default: break
                }
            case .endTag(let t) where t.name == "svg": foreign = false
            default: break
            }
            return .continue
        }
    }

    private static func tokens(_ bytes: [UInt8], byteAtATime: Bool) -> [String] {
        let sink = StateSwitchingCollector()
        let tokenizer = Tokenizer(sink: sink)
        if byteAtATime {
            for b in bytes { tokenizer.feed([b]) }
        } else {
            tokenizer.feed(bytes)
        }
        tokenizer.finish()
        sink.collector.process(.eof)
        return sink.collector.tokens
    }

    @Test func randomDocumentsTokenizeTheSameByteByByte() {
        var rng = Generator(state: 0x5EED)
        var differences = 0
        for round in 0..<1500 {
            var doc = ""
            for _ in 0..<(3 + rng.next(30)) { doc += Self.fragments[rng.next(Self.fragments.count)] }
            let bytes = Array(doc.utf8)
            let whole = Self.tokens(bytes, byteAtATime: false)
            let pieces = Self.tokens(bytes, byteAtATime: true)
            if whole != pieces {
                differences += 1
                if differences <= 5 {
                    Issue.record("round \(round) input \(q(doc)): \(firstDifference(pieces, whole))")
                }
            }
        }
        #expect(differences == 0)
    }
}
