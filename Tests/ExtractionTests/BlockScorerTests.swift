import Foundation
import HTML
import Testing
@testable import Extraction

/// The learned block scorer: its features from a text's blocks, the logistic model's chance, and
/// the rule that drops the blocks under `Tuning.blockScorer` (0: off, the default).
@Suite(.ownThread) struct BlockScorerTests {
    static let prose = "The council voted on Tuesday to keep the library open for another year, after a long debate about its costs. "
        + "The mayor said the building would be repaired in the spring, and that the reading room would stay open late on Thursdays."
    static let blocks: [Substring] = ["Home | News | Sport", Substring(prose), "Read more", Substring(prose), "© 2024 The Daily Example"]

    @Test func featuresDescribeEachBlockAndItsPlace() {
        let text = Self.blocks.joined(separator: "\n\n")
        let features = BlockScorer.features(Self.blocks, textLength: text.utf8.count, .standard)
        #expect(features.count == 5)
        #expect(features.allSatisfy { $0.count == BlockScorer.featureNames.count })
        let index = { (name: String) in BlockScorer.featureNames.firstIndex(of: name)! }
        #expect(features.map { $0[index("prose")] } == [0, 1, 0, 1, 0])
        #expect(features.map { $0[index("before the first prose")] } == [1, 0, 0, 0, 0])
        #expect(features.map { $0[index("after the last prose")] } == [0, 0, 0, 0, 1])
        #expect(features.map { $0[index("previous is prose")] } == [0, 0, 1, 0, 1])
        #expect(features.map { $0[index("copyright notice")] } == [0, 0, 0, 0, 1])
        #expect(features[0][index("separators per word")] == 2.0 / 5)
        #expect(features.map { $0[index("position")] } == [0, 0.25, 0.5, 0.75, 1])
        #expect(abs(features[2][index("log bytes")] - log1p(9)) < 1e-12)
    }

    @Test func theChanceIsTheLogisticOfTheWeightedFeatures() {
        #expect(BlockScorer.chance([1, 2], model: [0.5, -0.25, 0]) == 0.5)
        #expect(abs(BlockScorer.chance([1, 0], model: [2, 0, 0]) - 1 / (1 + exp(-2))) < 1e-12)
        // A model of another size (features added since it was trained) drops nothing.
        #expect(BlockScorer.chance([1, 0], model: [2, 0]) == 1)
    }

    /// A model that wants prose: under a threshold the label blocks go, and with the scorer off
    /// (the standard tuning) none does.
    static var proseModel: [Double] {
        var model = [Double](repeating: 0, count: BlockScorer.featureNames.count + 1)
        model[BlockScorer.featureNames.firstIndex(of: "prose")!] = 6
        model[model.count - 1] = -3
        return model
    }

    @Test func theRuleDropsTheBlocksUnderTheThreshold() throws {
        let text = Self.blocks.joined(separator: "\n\n")
        #expect(BlockScorer.dropped(Self.blocks, textLength: text.utf8.count, .standard).isEmpty)
        let tuned = try Tuning.standard.overriding(["blockScorer": 0.5, "blockModel": Self.proseModel])
        #expect(BlockScorer.dropped(Self.blocks, textLength: text.utf8.count, tuned) == [0, 2, 4])
    }

    /// Turned on in the pipeline, the blocks it drops leave the text and the HTML.
    @Test func thePipelineDropsThemFromTextAndHTML() throws {
        let page = Array("""
            <html><body><article><p>\(Self.prose)</p><p><a href=/more>Read more</a></p><p>\(Self.prose)</p>
            <p>Second paragraph's closing words, long enough to be prose of its own here and now.</p></article></body></html>
            """.utf8)
        let standard = try ArticlePipeline().run(page)
        #expect(standard.textContent.contains("Read more"))
        let tuned = try Tuning.standard.overriding(["blockScorer": 0.5, "blockModel": Self.proseModel])
        let scored = try ArticlePipeline(tuning: tuned).run(page)
        #expect(!scored.textContent.contains("Read more"))
        #expect(!scored.content.contains("Read more"))
        #expect(scored.textContent.contains("The mayor said"))
    }

    @Test func theFeaturesForTrainingAreTheScorers() {
        let text = Self.blocks.joined(separator: "\n\n")
        let exported = BlockFeatures.of(text: text)
        #expect(exported.map(\.block) == Self.blocks.map(String.init))
        #expect(exported.map(\.features) == BlockScorer.features(Self.blocks, textLength: text.utf8.count, .standard))
        #expect(BlockFeatures.names == BlockScorer.featureNames)
        #expect(Tuning.standard.blockModel.count == BlockScorer.featureNames.count + 1)
    }
}
