// Readability speed over the 100 corpus pages (run in release):
//   swift run -c release piper-bench-readability [ROUNDS]
// Prints parse-only and parse+extract time per page, throughput and their ratio.
import Foundation
import HTML
import Readability

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let corpus = root.appendingPathComponent("../shared/corpus/readability").standardized
let rounds = CommandLine.arguments.count > 1 ? max(1, Int(CommandLine.arguments[1]) ?? 3) : 3

var pages: [[UInt8]] = []
for name in (try? FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted()) ?? [] {
    if let data = FileManager.default.contents(atPath: corpus.appendingPathComponent(name).appendingPathComponent("source.html").path) {
        pages.append(Array(data))
    }
}
guard !pages.isEmpty else {
    FileHandle.standardError.write(Data("no pages found under \(corpus.path)\n".utf8))
    exit(1)
}
let totalBytes = pages.reduce(0) { $0 + $1.count }
let options = ParseOptions(scripting: false)

/// The calling thread's CPU time in seconds: other processes on a loaded machine do not
/// count, as they would in wall-clock time (they still slow it through shared caches).
func threadCPUNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func measure(_ body: () -> Void) -> Double {
    let start = threadCPUNow()
    body()
    return threadCPUNow() - start
}

// Parse-only and parse + extract are timed page by page, side by side, in the thread's CPU
// time, so load from other processes hits both alike; each page keeps its best time over the
// rounds.
var parseBestPerPage = [Double](repeating: .infinity, count: pages.count)
var fullBestPerPage = [Double](repeating: .infinity, count: pages.count)
var articles = 0
for _ in 0..<rounds {
    var found = 0
    for (i, page) in pages.enumerated() {
        let parseTime = measure { _ = Document.parse(bytes: page, options: options) }
        parseBestPerPage[i] = min(parseBestPerPage[i], parseTime)
        let fullTime = measure {
            let doc = Document.parse(bytes: page, options: options)
            if (try? Readability.parse(doc, url: "http://fakehost/test/page.html")) != nil { found += 1 }
        }
        fullBestPerPage[i] = min(fullBestPerPage[i], fullTime)
    }
    articles = found
}
let parseBest = parseBestPerPage.reduce(0, +)
let fullBest = fullBestPerPage.reduce(0, +)

let n = Double(pages.count)
let mb = Double(totalBytes) / 1_000_000
print("load average: \((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?")")
print("pages: \(pages.count), \(String(format: "%.2f", mb)) MB, articles: \(articles), best per page of \(rounds) rounds (thread CPU time)")
print(String(format: "parse only:        %7.2f ms/page  %7.1f MB/s", parseBest / n * 1000, mb / parseBest))
print(String(format: "parse + extract:   %7.2f ms/page  %7.1f MB/s", fullBest / n * 1000, mb / fullBest))
print(String(format: "extract only:      %7.2f ms/page", (fullBest - parseBest) / n * 1000))
print(String(format: "ratio (parse + extract) / parse: %.2fx", fullBest / parseBest))
