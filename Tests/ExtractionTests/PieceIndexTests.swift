@testable import Extraction
import HTML
import PiperTestSupport
import Testing

/// The choice's index of a container's text pieces: shares of identifying text found in both
/// directions, repeats weighed, short pieces and surrounding white space left out.
@Suite(.ownThread) struct PieceIndexTests {
    static func body(_ html: String) -> Node {
        Document.parse(html, options: ArticlePipeline.parseOptions()).body!
    }

    static let river = "The river authority measured the flood at dawn."
    static let villages = "It reached three villages and the old town by noon."
    static let mayor = "The mayor asked everyone to stay off the bridges."

    @Test func sharesAreMeasuredInBothDirections() {
        let candidate = Self.body("<p>\(Self.river)</p><p>\(Self.villages)</p>")
        let other = Self.body("<div><p>\n  \(Self.river)  \n</p><p>\(Self.mayor)</p><a>short link</a></div>")
        var index = PieceIndex(candidate, piece: Tuning.standard.piece)
        let o = index.overlap(with: other)
        let river = Double(Self.river.utf8.count), villages = Double(Self.villages.utf8.count), mayor = Double(Self.mayor.utf8.count)
        #expect(abs(o.ofIndexed - river / (river + villages)) < 1e-9)
        #expect(abs(o.ofOther - river / (river + mayor)) < 1e-9)
    }

    @Test func aRepeatedPieceWeighsEveryTimeItOccursAndIsFoundOnce() {
        let candidate = Self.body("<p>\(Self.river)</p><p>\(Self.river)</p><p>\(Self.villages)</p>")
        var index = PieceIndex(candidate, piece: Tuning.standard.piece)
        let o = index.overlap(with: Self.body("<p>\(Self.river)</p><p>\(Self.river)</p>"))
        let river = Double(Self.river.utf8.count), villages = Double(Self.villages.utf8.count)
        #expect(abs(o.ofIndexed - 2 * river / (2 * river + villages)) < 1e-9)
        #expect(o.ofOther == 1)
        // A second comparison starts afresh.
        #expect(index.overlap(with: Self.body("<p>\(Self.villages)</p>")).ofIndexed == villages / (2 * river + villages))
    }

    @Test func piecesDifferingInAByteDoNotMatch() {
        var index = PieceIndex(Self.body("<p>\(Self.river)</p>"), piece: Tuning.standard.piece)
        let o = index.overlap(with: Self.body("<p>The river authority measured the flood at dawn!</p><p>too short</p>"))
        #expect(o.ofIndexed == 0)
        #expect(o.ofOther == 0)
    }

    @Test func containersWithoutPiecesShareNothing() {
        var index = PieceIndex(Self.body("<p>short</p>"), piece: Tuning.standard.piece)
        let o = index.overlap(with: Self.body("<p>\(Self.river)</p>"))
        #expect(o.ofIndexed == 0 && o.ofOther == 0)
    }
}
