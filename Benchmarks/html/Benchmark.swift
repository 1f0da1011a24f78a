import Foundation
import HTML

enum Benchmark {
    /// Our parsers to compare with gumbo.
    static func ourRunners() -> [ParserRunner] {
        [ParseRunner(), TokenizeRunner()]
    }

    /// CPU seconds of each runner in each round, the runners interleaved page by page (every
    /// page parsed by each runner in turn, the order rotating from round to round, so a burst of
    /// load elsewhere on the machine hits all of them alike), after one warm-up round. Each
    /// call is timed with the thread's CPU clock: `perRound[runner][round]`.
    static func timeInterleaved(_ runners: [ParserRunner], _ pages: [Page], rounds: Int) -> (perRound: [[Double]], wall: [Double]) {
        var keep = 0
        for page in pages { for runner in runners { keep &+= runner.parse(page) } }  // warm-up round
        var perRound = Array(repeating: Array(repeating: 0.0, count: rounds), count: runners.count)
        var wall = Array(repeating: 0.0, count: runners.count)
        for round in 0..<rounds {
            for page in pages {
                for k in 0..<runners.count {
                    let r = (k + round) % runners.count
                    let start = now(), cpuStart = threadCPUNow()
                    keep &+= runners[r].parse(page)
                    perRound[r][round] += threadCPUNow() - cpuStart
                    wall[r] += now() - start
                }
            }
        }
        if keep == 42 { print("") }  // keeps the results alive
        return (perRound, wall)
    }

    /// Total (wall, CPU) seconds over all rounds, after one warm-up round.
    static func time(_ runner: ParserRunner, _ pages: [Page], rounds: Int) -> (wall: Double, cpu: Double) {
        var keep = 0
        for page in pages { keep &+= runner.parse(page) }  // warm-up round
        let start = now(), cpuStart = cpuNow()
        for _ in 0..<rounds {
            for page in pages { keep &+= runner.parse(page) }
        }
        let elapsed = (now() - start, cpuNow() - cpuStart)
        if keep == 42 { print("") }  // keeps the results alive
        return elapsed
    }

    /// Memory of the DOM of the largest page relative to the page's size, as the growth of
    /// the resident set (VmRSS) while the tree is alive. Run first, on a fresh heap; gumbo's
    /// tree is built first and kept alive too, so neither reuses memory the other freed.
    /// Page-granular and includes allocator slack: an approximation.
    static func reportMemory(_ pages: [Page]) {
        guard let largest = pages.max(by: { $0.utf8.count < $1.utf8.count }) else { return }
        let size = Double(largest.utf8.count)
        let rss0 = Memory.statusKB("VmRSS")
        let gumboTree = GumboTree(largest)
        let rss1 = Memory.statusKB("VmRSS")
        let document = Document.parse(bytes: largest.utf8, options: ParseOptions(transportEncoding: "utf-8"))
        let rss2 = Memory.statusKB("VmRSS")
        let elements = document.node.getElementsByTagName("*").count
        withExtendedLifetime(gumboTree) {}
        withExtendedLifetime(document) {}
        let ours = Double(rss2 - rss1) * 1024, gumbo = Double(rss1 - rss0) * 1024
        print(String(format: "largest page: %@, %.0f kB, %d elements", largest.name, size / 1024, elements))
        print(String(format: "  piper DOM ~%.1f MB = %.1fx the page; gumbo tree ~%.1f MB = %.1fx (VmRSS growth)",
                     ours / 1e6, ours / size, gumbo / 1e6, gumbo / size))
    }

    /// Input decoding beside the parse: the sniffing algorithm and decoding of each page's
    /// saved bytes (what `Document.parse(bytes:)` does before tokenizing), and the detector
    /// forced on every page (as if none declared its encoding), each as a share of parse time.
    static func reportDecoding(_ pages: [Page], rounds: Int, parseCPU: Double) {
        var keep = 0
        let start = cpuNow()
        for _ in 0..<rounds {
            for page in pages { keep &+= InputDecoder.decode(page.raw).utf8.count }
        }
        let decode = cpuNow() - start
        let detectStart = cpuNow()
        var undeclared = 0
        for _ in 0..<rounds {
            for page in pages { keep &+= InputDecoder.detect(page.raw)?.count ?? 0 }
        }
        let detect = cpuNow() - detectStart
        for page in pages where InputDecoder.sniffEncoding(page.raw, transportEncoding: nil).encoding.source == .detected {
            undeclared += 1
        }
        if keep == 42 { print("") }
        let perPage = { (t: Double) in t * 1000 / Double(pages.count * rounds) }
        print(String(format: "decode (sniff + decode)  %7.3f ms/page = %4.1f%% of parse; %d of %d pages detected",
                     perPage(decode), 100 * decode / parseCPU, undeclared, pages.count))
        print(String(format: "detector on every page   %7.3f ms/page = %4.1f%% of parse",
                     perPage(detect), 100 * detect / parseCPU))
    }
}
