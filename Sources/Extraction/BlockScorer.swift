// A learned block scorer, one more rule of the text stage: each block of an article's text
// (`BlockText.paragraphs`) is described by numbers from its text, its place among the blocks,
// its place in the markup (`BlockScorer+Shape`) and its neighbours', and gradient-boosted
// trees trained offline on the shared dev collections (`BoostedTrees`, a generated table) give
// the chance that it belongs to the article. With `Tuning.blockScorer` above 0, a block whose
// chance is under it leaves the text (and the HTML, as the trailing furniture does).
// The model is `Tuning.blockModel`, so a development run tries another one without a rebuild;
// scripts/train-block-scorer trains it, cross-validates it and writes the table. Whether it is
// on, and the numbers that decided it: `Tuning.blockScorer`.

import Foundation
import HTML

enum BlockScorer {
    /// The text features of a block, in order.
    static let textNames = [
        "log bytes", "ends a sentence", "prose", "digit share", "share of the text", "position",
        "after the last prose", "before the first prose", "previous is prose", "next is prose",
        "log words per sentence", "capitalized words", "copyright notice", "separators per word",
        "commas per word", "a label of three words or fewer",
    ]
    /// The features that relate a block to the main text and to its neighbours.
    static let contextNames = [
        "depth below the prose's", "log blocks to the nearest prose",
        "previous link density", "next link density", "previous is a heading", "next is a heading",
        "previous names furniture", "next names furniture", "previous repeats", "next repeats",
    ]
    /// The features, in the model's order (scripts/train-block-scorer reads them by name).
    static let featureNames = textNames + shapeNames + contextNames

    /// Each block's features (`featureNames`); `textLength` is the text's bytes, `shapes` the
    /// blocks' places in the markup.
    static func features(_ blocks: [Substring], textLength: Int, shapes: [Shape], _ tuning: Tuning) -> [[Double]] {
        let prose = blocks.map { BlockText.isProse($0, tuning) }
        let first = prose.firstIndex(of: true), last = prose.lastIndex(of: true)
        let proseDepths = shapes.indices.filter { prose[$0] }.map { shapes[$0].depth }.sorted()
        let mainDepth = proseDepths.isEmpty ? 0 : proseDepths[proseDepths.count / 2]
        let proseIndices = prose.indices.filter { prose[$0] }
        let heading = elementKinds.firstIndex { $0.name == "heading" }!
        let furniture = signals.firstIndex { $0.name == "other furniture" }!
        return blocks.indices.map { i in
            let shape = shapes[i]
            let previous = i > 0 ? shapes[i - 1] : nil, next = i + 1 < shapes.count ? shapes[i + 1] : nil
            let distance = proseIndices.map { abs($0 - i) }.min() ?? blocks.count
            let context: [Double] = [
                Double(shape.depth - mainDepth), log1p(Double(distance)),
                previous?.linkDensity ?? 0, next?.linkDensity ?? 0,
                previous?.kind == heading ? 1 : 0, next?.kind == heading ? 1 : 0,
                previous?.signals[furniture] == true ? 1 : 0, next?.signals[furniture] == true ? 1 : 0,
                (previous?.repeats ?? 0) > 2 ? 1 : 0, (next?.repeats ?? 0) > 2 ? 1 : 0,
            ]
            return textFeatures(blocks, i, prose: prose, first: first, last: last, textLength: textLength) + shape.features + context
        }
    }

    /// Block `i`'s text features (`textNames`).
    static func textFeatures(_ blocks: [Substring], _ i: Int, prose: [Bool], first: Int?, last: Int?, textLength: Int) -> [Double] {
        let block = blocks[i]
        let bytes = block.utf8.count
        var digits = 0, stops = 0, commas = 0, separators = 0
        for b in block.utf8 {
            switch b {
            case 0x30...0x39: digits += 1
            case 0x2E, 0x21, 0x3F: stops += 1
            case 0x2C: commas += 1
            case 0x7C, 0x2F: separators += 1
            default: break
            }
        }
        let words = block.split(whereSeparator: { $0 == " " || $0 == "\n" })
        let capitalized = words.filter { $0.first?.isUppercase == true }.count
        let n = Double(max(1, words.count))
        return [
            log1p(Double(bytes)), BlockText.endsSentence(block) ? 1 : 0, prose[i] ? 1 : 0,
            Double(digits) / Double(max(1, bytes)), Double(bytes) / Double(max(1, textLength)),
            blocks.count > 1 ? Double(i) / Double(blocks.count - 1) : 0,
            last.map { i > $0 } == true ? 1 : 0, first.map { i < $0 } == true ? 1 : 0,
            i > 0 && prose[i - 1] ? 1 : 0, i + 1 < blocks.count && prose[i + 1] ? 1 : 0,
            log1p(n / Double(1 + stops)), Double(capitalized) / n, BlockText.isCopyrightNotice(block) ? 1 : 0,
            Double(separators) / n, Double(commas) / n, words.count <= 3 ? 1 : 0,
        ]
    }

    /// The blocks the scorer drops: none while `tuning.blockScorer` is 0. `located` is each
    /// text node's block under `root` (the article's walk notes it). With a recorder set
    /// (`BlockFeatures.recording`), every block's features are handed to it, on or off.
    static func dropped(_ blocks: [Substring], textLength: Int, located: [(node: Int32, block: Int)], in root: Node,
                        _ tuning: Tuning) -> Set<Int> {
        let recorder = BlockFeatures.recorder
        guard tuning.blockScorer > 0 || recorder != nil else { return [] }
        let shapes = shapes(count: blocks.count, located: located, in: root)
        let all = features(blocks, textLength: textLength, shapes: shapes, tuning)
        recorder?.record(zip(blocks, all).map { (String($0), $1) })
        guard tuning.blockScorer > 0 else { return [] }
        // With `blockScorerEdges`, only the blocks before the first prose and after the last.
        let before = textNames.firstIndex(of: "before the first prose")!, after = textNames.firstIndex(of: "after the last prose")!
        var out = Set<Int>()
        for (i, f) in all.enumerated() where tuning.blockScorerEdges == 0 || f[before] == 1 || f[after] == 1 {
            if BoostedTrees.chance(f, model: tuning.blockModel) < tuning.blockScorer { out.insert(i) }
        }
        return out
    }
}

/// The block scorer's features of the articles extracted while recording, for training it
/// offline (`piper-bench-extraction --blocks OUT`; scripts/train-block-scorer).
public enum BlockFeatures {
    /// Collects the blocks of the articles extracted in `body` (their trailing blocks too,
    /// when the tuning keeps them) with their features, as the scorer sees them.
    public static func recording<R>(_ body: () throws -> R) rethrows -> (R, [(block: String, features: [Double])]) {
        let recorder = Recorder()
        let result = try $recorder.withValue(recorder) { try body() }
        return (result, recorder.blocks)
    }

    /// The features' names, in order.
    public static var names: [String] { BlockScorer.featureNames }

    @TaskLocal static var recorder: Recorder?

    final class Recorder: @unchecked Sendable {
        private(set) var blocks: [(block: String, features: [Double])] = []
        func record(_ more: [(String, [Double])]) { blocks += more.map { (block: $0.0, features: $0.1) } }
    }
}
