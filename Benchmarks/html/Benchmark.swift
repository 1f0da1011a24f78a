import Foundation
import HTML

enum Benchmark {
    /// Our parsers to compare with gumbo.
    static func ourRunners() -> [ParserRunner] {
        [TokenizeRunner()]
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

    /// Memory of the largest page's parse result relative to its size.
    static func reportMemory(_ pages: [Page], baseRSS: Int) {
        guard let largest = pages.max(by: { $0.utf8.count < $1.utf8.count }) else { return }
        print("largest page: \(largest.name), \(largest.utf8.count / 1024) kB")
    }
}
