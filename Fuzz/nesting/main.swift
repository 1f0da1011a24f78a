// Not a fuzz harness: a release-build timing of Document.parse on deeply nested markup,
// built by `scripts/fuzz --nesting` with the HTML sources (no sanitizers). Prints numbers.

import Foundation

@main
struct NestingTiming {
    static func main() {
        let depths = CommandLine.arguments.dropFirst().compactMap { Int($0) }
        for depth in depths.isEmpty ? [10_000, 50_000, 100_000] : depths {
            for (label, open, close) in [("div", "<div>", "</div>"), ("span unclosed", "<span>", ""),
                                         ("b (formatting)", "<b>", "</b>"), ("table", "<table><tr><td>", "</td></tr></table>")] {
                let html = String(repeating: open, count: depth) + "x" + String(repeating: close, count: depth)
                let start = Date()
                let document = Document.parse(html)
                let seconds = Date().timeIntervalSince(start)
                let size = document.node.innerHTML.utf8.count
                print("\(label) depth \(depth): parse \(String(format: "%.3f", seconds)) s (\(size) bytes serialized)")
            }
        }
    }
}
