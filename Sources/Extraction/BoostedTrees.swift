// Gradient-boosted decision trees, evaluated: the learned block scorer's model
// (`Tuning.blockModel`, trained by scripts/train-block-scorer with scikit-learn and written as a
// Swift table; no Python at run time). The model is one flat list of numbers, so a development
// run can hand another one in a Tuning override:
//   [bias, tree count, each tree's root node, then every node as four numbers:
//    feature (-1 for a leaf), threshold (a leaf: its value), left node, right node]
// A sample goes left when its feature, rounded to single precision as scikit-learn's trees read
// it, is at most the threshold. The log-odds are the bias plus every tree's leaf.

import Foundation

enum BoostedTrees {
    /// The log-odds that `features` belong to the class, or nil when `model` is malformed (too
    /// short, a node or feature out of range, a path longer than the nodes).
    static func logOdds(_ features: [Double], model: [Double]) -> Double? {
        guard model.count >= 2, let trees = Int(exactly: model[1]), trees >= 0, model.count >= 2 + trees else { return nil }
        let start = 2 + trees
        let nodes = (model.count - start) / 4
        var z = model[0]
        for t in 0..<trees {
            guard var node = Int(exactly: model[2 + t]) else { return nil }
            var steps = 0
            while true {
                guard node >= 0, node < nodes, steps <= nodes else { return nil }
                steps += 1
                let at = start + 4 * node
                let feature = Int(model[at])
                if feature < 0 { z += model[at + 1]; break }
                guard feature < features.count else { return nil }
                let goesLeft = Double(Float(features[feature])) <= model[at + 1]
                guard let next = Int(exactly: model[at + (goesLeft ? 2 : 3)]) else { return nil }
                node = next
            }
        }
        return z
    }

    /// The chance that `features` belong to the class; 1 (keep) under a malformed model.
    static func chance(_ features: [Double], model: [Double]) -> Double {
        guard let z = logOdds(features, model: model) else { return 1 }
        return 1 / (1 + exp(-z))
    }
}
