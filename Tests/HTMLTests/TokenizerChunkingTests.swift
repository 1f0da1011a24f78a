import Foundation
import PiperTestSupport
import Testing
import HTML

/// Real pages (shared/corpus/readability) tokenized in one piece and in uneven chunks, with
/// CRLF line ends mixed in: the token streams must be identical.
@Suite(.ownThread) struct TokenizerChunkingTests {
    private static func tokens(_ bytes: [UInt8], chunkSizes: [Int]) -> [String] {
        let sink = TokenCollector()
        let tokenizer = Tokenizer(sink: sink)
        var start = 0, k = 0
        while start < bytes.count {
            let size = chunkSizes.isEmpty ? bytes.count : chunkSizes[k % chunkSizes.count]
            let end = min(bytes.count, start + size)
            tokenizer.feed(Array(bytes[start..<end]))
            start = end
            k += 1
        }
        tokenizer.finish()
        sink.process(.eof)
        return sink.tokens
    }

    @Test func readabilityPagesTokenizeTheSameInChunks() throws {
        let dir = TestPaths.shared.appendingPathComponent("corpus/readability")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        var checked = 0
        for name in names.prefix(12) {
            let url = dir.appendingPathComponent(name).appendingPathComponent("source.html")
            guard let data = FileManager.default.contents(atPath: url.path) else { continue }
            var bytes = InputDecoder.decode([UInt8](data)).utf8
            // Turn every third LF into CRLF, so CR handling is exercised at chunk edges too.
            var withCR: [UInt8] = []
            var lines = 0
            for b in bytes {
                if b == 0x0A { lines += 1; if lines % 3 == 0 { withCR.append(0x0D) } }
                withCR.append(b)
            }
            bytes = withCR
            let whole = Self.tokens(bytes, chunkSizes: [])
            let chunked = Self.tokens(bytes, chunkSizes: [1, 2, 3, 5, 8, 13, 21, 64, 1000, 4096])
            #expect(whole.count > 10, "\(name) produced almost no tokens")
            if whole != chunked {
                let n = zip(whole, chunked).prefix { $0.0 == $0.1 }.count
                Issue.record("\(name): token \(n) differs: whole \(n < whole.count ? whole[n] : "-"), chunked \(n < chunked.count ? chunked[n] : "-")")
            }
            checked += 1
        }
        print("tokenizer chunking: \(checked) readability pages compared")
        #expect(checked >= 10)
    }
}
