// A learned block scorer, one more rule of the text stage: each block of an article's text
// (`BlockText.paragraphs`) is described by a few numbers from its text and its place among the
// blocks, and a logistic model trained offline on the shared dev collections gives the chance
// that it belongs to the article. With `Tuning.blockScorer` above 0, a block whose chance is
// under it leaves the text (and the HTML, as the trailing furniture does). Off by default:
// five-fold cross-validation did not approve it. Trained on four folds' 102,527 labelled blocks
// and scored on the fifth, its held-back block accuracy is 0.90–0.93, where calling every block
// the article's scores 0.918; with the threshold (0.15 or 0.3) chosen on the other folds, the
// held-back pages read trafilatura-eval 0.9370 ± 0.0071 (the same as without it) and wcxb-dev
// 0.8712 ± 0.0099 against 0.8716 ± 0.0096 without it (collection pages 0.689 against 0.694).
// The model is `Tuning.blockModel` (one weight per feature, then the bias), so a development run
// tries another one without a rebuild; scripts/train-block-scorer trains it and writes the table.

import Foundation

enum BlockScorer {
    /// The features, in the model's order (scripts/train-block-scorer names them the same).
    static let featureNames = [
        "log bytes", "ends a sentence", "prose", "digit share", "share of the text", "position",
        "after the last prose", "before the first prose", "previous is prose", "next is prose",
        "log words per sentence", "capitalized words", "copyright notice", "separators per word",
        "commas per word", "a label of three words or fewer",
    ]

    /// Each block's features (`featureNames`); `textLength` is the text's bytes.
    static func features(_ blocks: [Substring], textLength: Int, _ tuning: Tuning) -> [[Double]] {
        let prose = blocks.map { BlockText.isProse($0, tuning) }
        let first = prose.firstIndex(of: true), last = prose.lastIndex(of: true)
        return blocks.indices.map { i in
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
    }

    /// The chance that a block with `features` belongs to the article, under `model`.
    static func chance(_ features: [Double], model: [Double]) -> Double {
        guard model.count == features.count + 1 else { return 1 }
        var z = model[features.count]
        for (x, w) in zip(features, model) { z += x * w }
        return 1 / (1 + exp(-z))
    }

    /// The blocks the scorer drops: none while `tuning.blockScorer` is 0.
    static func dropped(_ blocks: [Substring], textLength: Int, _ tuning: Tuning) -> Set<Int> {
        guard tuning.blockScorer > 0 else { return [] }
        var out = Set<Int>()
        for (i, f) in features(blocks, textLength: textLength, tuning).enumerated()
        where chance(f, model: tuning.blockModel) < tuning.blockScorer {
            out.insert(i)
        }
        return out
    }
}

/// The block scorer's features of an article's text, for training it offline
/// (`piper-bench-extraction --blocks OUT`; scripts/train-block-scorer).
public enum BlockFeatures {
    /// The text's blocks with their features, as the scorer sees them.
    public static func of(text: String) -> [(block: String, features: [Double])] {
        let blocks = BlockText.paragraphs(of: text)
        let features = BlockScorer.features(blocks, textLength: text.utf8.count, .standard)
        return zip(blocks, features).map { (String($0), $1) }
    }

    /// The features' names, in order.
    public static var names: [String] { BlockScorer.featureNames }
}
