import Foundation
import HTML

// piper-bench-html [--rounds N] [--no-gumbo] [CORPUS_DIR]
// Parses every readability source.html N rounds with our parser and with gumbo, and prints
// throughput (MB/s), ms per page, peak RSS and the speed ratio, then what input decoding costs
// beside the parse (sniffing + decoding the saved bytes, and the detector run on every page).
// Build with -c release.

var rounds = 5
var skipGumbo = false
var dir = Corpus.defaultDirectory()
var args = CommandLine.arguments.dropFirst()
while let arg = args.popFirst() {
    if arg == "--rounds", let n = args.popFirst().flatMap({ Int($0) }) { rounds = n }
    else if arg == "--no-gumbo" { skipGumbo = true }  // for profiling our parser alone
    else { dir = URL(fileURLWithPath: arg) }
}

let pages = try Corpus.load(dir)
let totalBytes = pages.reduce(0) { $0 + $1.utf8.count }
print("corpus: \(pages.count) pages, \(String(format: "%.1f", Double(totalBytes) / 1e6)) MB (UTF-8), \(rounds) rounds")
Benchmark.reportMemory(pages)

let ours: [ParserRunner] = Benchmark.ourRunners()
var results: [String: Double] = [:]
for runner in ours + (skipGumbo ? [] : [GumboRunner()]) {
    let (wall, cpu) = Benchmark.time(runner, pages, rounds: rounds)
    results[runner.name] = cpu
    let mb = Double(totalBytes * rounds) / 1e6
    let msPerPage = cpu * 1000 / Double(pages.count * rounds)
    print(String(format: "%-16@ %8.1f MB/s (CPU time; wall %6.1f MB/s)  %7.3f ms/page  peak RSS %6d kB (VmHWM)",
                 runner.name, mb / cpu, mb / wall, msPerPage, Memory.statusKB("VmHWM")))
}
if let gumbo = results["gumbo parse"] {
    for runner in ours {
        print(String(format: "%@ vs gumbo: %.2fx (CPU time)", runner.name, gumbo / results[runner.name]!))
    }
}

if let parse = results["piper parse"] {
    Benchmark.reportDecoding(pages, rounds: rounds, parseCPU: parse)
}
