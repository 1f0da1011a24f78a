import Foundation
import HTML
import Testing
@testable import Extraction

/// The learned block scorer: its features from a text's blocks and their markup, the boosted
/// trees' chance, and the rule that drops the blocks under `Tuning.blockScorer` (0: off).
@Suite(.ownThread) struct BlockScorerTests {
    static let prose = "The council voted on Tuesday to keep the library open for another year, after a long debate about its costs. "
        + "The mayor said the building would be repaired in the spring, and that the reading room would stay open late on Thursdays."
    static let blocks: [Substring] = ["Home | News | Sport", Substring(prose), "Read more", Substring(prose), "© 2024 The Daily Example"]
    static func index(_ name: String) -> Int { BlockScorer.featureNames.firstIndex(of: name)! }

    @Test func textFeaturesDescribeEachBlockAndItsPlace() {
        let text = Self.blocks.joined(separator: "\n\n")
        let shapes = [BlockScorer.Shape](repeating: .init(), count: Self.blocks.count)
        let features = BlockScorer.features(Self.blocks, textLength: text.utf8.count, shapes: shapes, .standard)
        #expect(features.count == 5)
        #expect(features.allSatisfy { $0.count == BlockScorer.featureNames.count })
        #expect(features.map { $0[Self.index("prose")] } == [0, 1, 0, 1, 0])
        #expect(features.map { $0[Self.index("before the first prose")] } == [1, 0, 0, 0, 0])
        #expect(features.map { $0[Self.index("after the last prose")] } == [0, 0, 0, 0, 1])
        #expect(features.map { $0[Self.index("previous is prose")] } == [0, 0, 1, 0, 1])
        #expect(features.map { $0[Self.index("copyright notice")] } == [0, 0, 0, 0, 1])
        #expect(features[0][Self.index("separators per word")] == 2.0 / 5)
        #expect(features.map { $0[Self.index("position")] } == [0, 0.25, 0.5, 0.75, 1])
        #expect(features.map { $0[Self.index("log blocks to the nearest prose")] } == [log1p(1), 0, log1p(1), 0, log1p(1)])
        #expect(abs(features[2][Self.index("log bytes")] - log1p(9)) < 1e-12)
    }

    /// The markup features, read from an article's elements through the recorder the training
    /// export uses: links, element kinds, class and id signals, repeats, and neighbours.
    @Test func markupFeaturesComeFromTheArticlesElements() throws {
        let body = """
            <div id=root><h2>The library stays open</h2><p>\(Self.prose)</p>
            <div class="share-tools"><a href=/s>Share this story</a></div>
            <p>\(Self.prose) More.</p>
            <ul class="related-links"><li><a href=/1>One related story</a></li><li><a href=/2>Another related story</a></li><li><a href=/3>A third</a></li></ul>
            <div class="comments"><p>Reader comment, which is plain text without any links.</p></div></div>
            """
        let document = Document.parse("<html><body>\(body)</body></html>")
        let root = try #require(document.body?.firstChild)
        let keeping = try Tuning.standard.overriding(["trailingBlocksShare": -1])
        let (_, recorded) = BlockFeatures.recording { BlockText.text(of: root, article: true, keeping) }
        let blocks = recorded.map(\.block)
        let at = { (prefix: String) in try #require(blocks.firstIndex { $0.hasPrefix(prefix) }) }
        let f = recorded.map(\.features)
        #expect(f.allSatisfy { $0.count == BlockScorer.featureNames.count })
        let heading = try at("The library"), share = try at("Share this"), related = try at("One related"), comment = try at("Reader comment")
        #expect(f[heading][Self.index("heading")] == 1 && f[heading][Self.index("paragraph")] == 0)
        #expect(f[heading + 1][Self.index("paragraph")] == 1 && f[heading + 1][Self.index("link density")] == 0)
        #expect(f[share][Self.index("link density")] == 1)
        #expect(f[share][Self.index("names share")] == 1 && f[share][Self.index("names comment")] == 0)
        #expect(f[related][Self.index("in a list")] == 1 && f[related][Self.index("list item")] == 1)
        #expect(f[related][Self.index("names related")] == 1)
        #expect(f[related][Self.index("repeated shape")] == 1 && f[related][Self.index("log same-shaped siblings")] == log1p(3))
        #expect(f[heading][Self.index("repeated shape")] == 0)
        #expect(f[comment][Self.index("names comment")] == 1 && f[comment][Self.index("link density")] == 0)
        #expect(f[comment][Self.index("depth")] == 2 && f[heading][Self.index("depth")] == 1)
        #expect(f[comment][Self.index("depth below the prose's")] == 1)
        #expect(f[share + 1][Self.index("previous link density")] == 1)
        #expect(f[heading + 1][Self.index("previous is a heading")] == 1)
        // Outside a recording, and with the scorer off, nothing is measured.
        #expect(BlockFeatures.recorder == nil)
    }

    /// A tree: feature 0 at most 0.5 goes left (leaf -2), else right (leaf 3); a second tree
    /// adds 1 everywhere; bias 0.25.
    static let trees: [Double] = [0.25, 2, 0, 3, /* tree 1 */ 0, 0.5, 1, 2, -1, -2, 0, 0, -1, 3, 0, 0, /* tree 2 */ -1, 1, 0, 0]

    @Test func theTreesAddTheirLeavesToTheBias() throws {
        #expect(BoostedTrees.logOdds([0.5], model: Self.trees) == 0.25 - 2 + 1)
        #expect(BoostedTrees.logOdds([0.7], model: Self.trees) == 0.25 + 3 + 1)
        // Single precision, as scikit-learn's trees read a feature: just above 0.5 in double
        // precision is 0.5 in single and goes left.
        #expect(BoostedTrees.logOdds([0.5 + 1e-12], model: Self.trees) == -0.75)
        #expect(abs(BoostedTrees.chance([0.7], model: Self.trees) - 1 / (1 + exp(-4.25))) < 1e-12)
    }

    @Test func aMalformedModelKeepsEveryBlock() {
        #expect(BoostedTrees.logOdds([0.5], model: []) == nil)
        #expect(BoostedTrees.logOdds([0.5], model: [0, 1, 5, -1, 1, 0, 0]) == nil)
        // A feature the sample does not have, and a cycle.
        #expect(BoostedTrees.logOdds([0.5], model: [0, 1, 0, 3, 0.5, 0, 0]) == nil)
        #expect(BoostedTrees.logOdds([0.5], model: [0, 1, 0, 0, 0.5, 0, 0]) == nil)
        #expect(BoostedTrees.chance([0.5], model: [0, 1, 0, 0, 0.5, 0, 0]) == 1)
        // The logistic model this replaced (weights, then a bias) is no tree list.
        #expect(BoostedTrees.logOdds([1, 2], model: [0.5, -0.25, 0]) == nil)
    }

    /// A model that wants prose: one tree on the "prose" feature.
    static var proseModel: [Double] {
        [-3, 1, 0, Double(index("prose")), 0.5, 1, 2, -1, 0, 0, 0, -1, 6, 0, 0]
    }

    /// Limited to the edges (`Tuning.blockScorerEdges`), the scorer judges only the blocks
    /// before the first prose and after the last.
    @Test func atTheEdgesOnlyTheBlocksAroundTheProse() throws {
        let body = "<div id=root><p>Menu</p><p>\(Self.prose)</p><p>Inside</p><p>\(Self.prose)</p><p>After</p></div>"
        let document = Document.parse("<html><body>\(body)</body></html>")
        let root = try #require(document.body?.firstChild)
        let everywhere = try Tuning.standard.overriding(["blockScorer": 0.5, "blockModel": Self.proseModel, "trailingBlocksShare": -1])
        let edges = try everywhere.overriding(["blockScorerEdges": 1])
        let copy = Document.parse("<html><body>\(body)</body></html>")
        #expect(BlockText.text(of: root, article: true, everywhere) == Self.prose + "\n\n" + Self.prose)
        #expect(BlockText.text(of: try #require(copy.body?.firstChild), article: true, edges) == [Self.prose, "Inside", Self.prose].joined(separator: "\n\n"))
    }

    /// Turned on in the pipeline, the blocks it drops leave the text and the HTML; with the
    /// scorer off (the standard tuning) none does.
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

    @Test func theShippedModelReadsEveryFeature() {
        #expect(BlockFeatures.names == BlockScorer.featureNames)
        let model = Tuning.standard.blockModel
        let features = [Double](repeating: 0, count: BlockScorer.featureNames.count)
        #expect(BoostedTrees.logOdds(features, model: model) != nil)
    }
}
