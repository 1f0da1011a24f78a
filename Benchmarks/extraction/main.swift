// piper-bench-extraction: both extraction modes over trafilatura-eval and wcxb-dev, scored
// with each collection's own metric, per page type, with ms/page.
//   swift build -c release --product piper-bench-extraction
//   .build/release/piper-bench-extraction [--stride N] [--mode piper|readability] [--worst N] [--dump FILE] [--rounds N] [--page ID]... [--corpus DIR]
// --page ID keeps only that page (repeat it for more), for profiling one page.
// --corpus DIR reads the collections from DIR instead of ../shared/corpus (wcxb-dev pages may
// be decompressed there: under valgrind the gzip child process cannot start).
// --rounds N extracts each page N times in a row and keeps the least CPU time (default 1); the
// modes take turns on each page, so a change in the shared machine's load reaches both alike.
// --dump writes one JSON object per page and mode ({collection, id, mode, text, content, ms}) for
// scripts/bench-extraction, which scores trafilatura beside them.
// Development runs of the piper mode's thresholds (`Tuning`), without a rebuild:
// --tuning FILE runs with the overrides of FILE, a JSON object of values by field name.
// --variants FILE --scores OUT runs every variant of FILE (a JSON array of such objects; {} is
// the standard tuning) in one process, each page read and parsed once, and writes one JSON
// object per variant and page to OUT ({variant, collection, id, f1, tp, fn, fp}) for
// scripts/tune-extraction. --tuning-fields prints every field's standard value as JSON.
// --blocks OUT writes each page's article blocks with the learned block scorer's features
// ({collection, id, blocks: [{text, features}]}, the trailing blocks kept) for
// scripts/train-block-scorer.
import CorpusEval
import Extraction
import Foundation
import HTML

var stride = 1
var modes = ExtractionMode.allCases
var worst = 0
var rounds = 1
var dumpPath: String?
var collections = Collection.allCases
var only: Set<String> = []
var corpusOverride: String?
var tuning = Tuning.standard
var variants: [Tuning]?
var scoresPath: String?
var blocksPath: String?

/// The overrides in the JSON of `path` (an object, or an array of them), or exit 64 saying why.
func readOverrides(_ path: String?) -> Any {
    guard let path, let data = FileManager.default.contents(atPath: path) else { fail("cannot read tuning file \(path ?? "")") }
    guard let object = try? JSONSerialization.jsonObject(with: data) else { fail("\(path): not JSON") }
    return object
}

func tuned(_ overrides: Any, in path: String?) -> Tuning {
    guard let object = overrides as? [String: Any] else { fail("\(path ?? ""): a variant must be a JSON object of values by field name") }
    do { return try Tuning.standard.overriding(object) } catch { fail("\(path ?? ""): \(error)") }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(64)
}
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--stride": stride = Int(arguments.next() ?? "") ?? 1
    case "--mode": modes = [ExtractionMode(rawValue: arguments.next() ?? "") ?? .piper]
    case "--worst": worst = Int(arguments.next() ?? "") ?? 10
    case "--dump": dumpPath = arguments.next()
    case "--rounds": rounds = max(1, Int(arguments.next() ?? "") ?? 1)
    case "--page": only.insert(arguments.next() ?? "")
    case "--corpus": corpusOverride = arguments.next()
    case "--collection": collections = [Collection(rawValue: arguments.next() ?? "") ?? .wcxbDev]
    case "--tuning":
        let path = arguments.next()
        tuning = tuned(readOverrides(path), in: path)
    case "--variants":
        let path = arguments.next()
        guard let list = readOverrides(path) as? [Any] else { fail("\(path ?? ""): variants are a JSON array of objects") }
        variants = list.map { tuned($0, in: path) }
    case "--scores": scoresPath = arguments.next()
    case "--blocks": blocksPath = arguments.next()
    case "--tuning-fields":
        let data = try JSONSerialization.data(withJSONObject: Tuning.standard.values, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
        exit(0)
    default:
        FileHandle.standardError.write(Data("unknown argument \(argument)\n".utf8))
        exit(64)
    }
}

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let corpus = corpusOverride.map { URL(fileURLWithPath: $0) } ?? Collection.corpusFolder(packageRoot: root)
if let blocksPath {
    // The text before the trailing blocks are dropped: the blocks the scorer sees.
    let keeping = try tuning.overriding(["trailingBlocksShare": -1])
    var lines: [String] = []
    for collection in collections {
        var pages = try collection.pages(in: corpus, stride: stride)
        if !only.isEmpty { pages = pages.filter { only.contains($0.id) } }
        for page in pages {
            let document = Document.parse(bytes: try page.bytes(), options: ArticlePipeline.parseOptions())
            let (_, recorded) = BlockFeatures.recording { try? ArticlePipeline(mode: .piper, tuning: keeping).extract(from: document, url: page.url) }
            let blocks = recorded.map { ["text": $0.block, "features": $0.features] as [String: Any] }
            let object: [String: Any] = ["collection": collection.rawValue, "id": page.id, "blocks": blocks]
            lines.append(String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self))
        }
    }
    try (lines.joined(separator: "\n") + "\n").write(toFile: blocksPath, atomically: true, encoding: .utf8)
    exit(0)
}

if let variants {
    guard let scoresPath else { fail("--variants needs --scores FILE") }
    var lines: [String] = []
    for collection in collections {
        var pages = try collection.pages(in: corpus, stride: stride)
        if !only.isEmpty { pages = pages.filter { only.contains($0.id) } }
        let scores = try Evaluation.runVariants(collection, pages: pages, tunings: variants)
        for (k, perPage) in scores.enumerated() {
            for (page, score) in zip(pages, perPage) {
                let object: [String: Any] = ["variant": k, "collection": collection.rawValue, "id": page.id, "f1": score.f1,
                                             "tp": score.snippets.tp, "fn": score.snippets.fn, "fp": score.snippets.fp]
                lines.append(String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self))
            }
        }
    }
    try (lines.joined(separator: "\n") + "\n").write(toFile: scoresPath, atomically: true, encoding: .utf8)
    exit(0)
}

var dump: [String] = []
for collection in collections {
    var pages = try collection.pages(in: corpus, stride: stride)
    if !only.isEmpty { pages = pages.filter { only.contains($0.id) } }
    if pages.isEmpty { continue }
    // The modes are interleaved page by page (`Evaluation.run(modes:)`), so their times compare.
    for summary in try Evaluation.run(collection, pages: pages, modes: modes, rounds: rounds, tuning: tuning) {
        let mode = summary.mode
        var line = String(format: "%@ %@ (%d pages): F1 %.3f", collection.rawValue, mode.rawValue, pages.count, summary.f1())
        if collection == .trafilaturaEval {
            let s = summary.snippets
            line += String(format: " (P %.3f R %.3f)", s.precision, s.recall)
        } else {
            line += " |" + summary.pageTypes.map { String(format: " %@ %.3f", $0, summary.f1(pageType: $0)) }.joined()
        }
        line += String(format: " | %.1f CPU ms/page", summary.millisecondsPerPage)
        print(line)
        for r in summary.worst(worst) { print(String(format: "  %.3f %@ %@", r.f1, r.page.id, r.page.pageType)) }
        if dumpPath != nil {
            for r in summary.results {
                let object: [String: Any] = ["collection": collection.rawValue, "id": r.page.id, "mode": mode.rawValue,
                                             "text": r.text ?? NSNull(), "content": r.content ?? NSNull(),
                                             "ms": r.milliseconds]
                let data = try JSONSerialization.data(withJSONObject: object)
                dump.append(String(decoding: data, as: UTF8.self))
            }
        }
    }
}
if let dumpPath {
    try (dump.joined(separator: "\n") + "\n").write(toFile: dumpPath, atomically: true, encoding: .utf8)
}
