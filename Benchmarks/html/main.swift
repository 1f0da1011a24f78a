import Foundation
import HTML

// piper-bench-html [--rounds N] [--no-gumbo] [--lexbor MODULE --libpython LIB] [CORPUS_DIR]
// Parses every readability source.html N rounds with our parser, with gumbo and (given
// selectolax's extension module, see scripts/bench-html) with lexbor, interleaved page by page,
// and prints throughput (MB/s), ms per page (min and median of the rounds), peak RSS and the
// ratios, then what input decoding costs beside the parse. Build with -c release.

var rounds = 5
var skipGumbo = false
var lexborModule: String?
var libpython: String?
var dir = Corpus.defaultDirectory()
var args = CommandLine.arguments.dropFirst()
while let arg = args.popFirst() {
    if arg == "--rounds", let n = args.popFirst().flatMap({ Int($0) }) { rounds = n }
    else if arg == "--no-gumbo" { skipGumbo = true }  // for profiling our parser alone
    else if arg == "--lexbor" { lexborModule = args.popFirst() }
    else if arg == "--libpython" { libpython = args.popFirst() }
    else { dir = URL(fileURLWithPath: arg) }
}

let pages = try Corpus.load(dir)
let totalBytes = pages.reduce(0) { $0 + $1.utf8.count }
print("corpus: \(pages.count) pages, \(String(format: "%.1f", Double(totalBytes) / 1e6)) MB (UTF-8), \(rounds) rounds, interleaved page by page")
Benchmark.reportMemory(pages)

let ours: [ParserRunner] = Benchmark.ourRunners()
var peers: [ParserRunner] = skipGumbo ? [] : [GumboRunner()]
if let lexborModule {
    peers.append(try LexborRunner(module: lexborModule, libpython: libpython ?? "libpython3.so"))
}
let runners = ours + peers
let (perRound, wall) = Benchmark.timeInterleaved(runners, pages, rounds: rounds)
var median: [String: Double] = [:]
for (r, runner) in runners.enumerated() {
    let sorted = perRound[r].sorted()
    let cpu = perRound[r].reduce(0, +)
    median[runner.name] = sorted[sorted.count / 2]
    let mb = Double(totalBytes * rounds) / 1e6
    let perPage = { (t: Double) in t * 1000 / Double(pages.count) }
    print(String(format: "%-16@ %8.1f MB/s (CPU time; wall %6.1f MB/s)  %7.3f / %7.3f ms/page (min / median)",
                 runner.name, mb / cpu, mb / wall[r], perPage(sorted[0]), perPage(median[runner.name]!)))
}
for peer in peers {
    for runner in ours {
        let ratio = median[peer.name]! / median[runner.name]!
        print(String(format: "%@ vs %@: %.2fx faster (%@ takes %.2fx its time; CPU, medians)",
                     runner.name, peer.name, ratio, runner.name, 1 / ratio))
    }
}
print("peak RSS \(Memory.statusKB("VmHWM")) kB (VmHWM)")

if let parse = median["piper parse"] {
    Benchmark.reportDecoding(pages, rounds: rounds, parseCPU: parse * Double(rounds))
}
