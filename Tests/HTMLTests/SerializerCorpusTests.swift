import Foundation
import PiperTestSupport
import Testing
@testable import HTML

@Suite(.ownThread) struct SerializerCorpusTests {
    /// Every Mozilla Readability corpus page parses from bytes into html/head/body, and its
    /// serialization is a fixed point (parse(serialize(d)) serializes to the same text).
    /// Prints the parse throughput of this (usually debug) build for information only.
    @Test func readabilityCorpusRoundTrips() throws {
        let root = TestPaths.shared.appendingPathComponent("corpus/readability")
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        var pages: [(String, [UInt8])] = []
        for name in names {
            if let data = FileManager.default.contents(atPath: root.appendingPathComponent(name).appendingPathComponent("source.html").path) {
                pages.append((name, [UInt8](data)))
            }
        }
        try #require(pages.count >= 100, "expected the 100 corpus pages under \(root.path)")
        var fixedPoints = 0
        var parseSeconds = 0.0
        for (name, bytes) in pages {
            let started = Date()
            let document = Document.parse(bytes: bytes)
            parseSeconds += Date().timeIntervalSince(started)
            #expect(document.head != nil && document.body != nil, "\(name): no head/body")
            let once = document.node.innerHTML
            let twice = Document.parse(once).node.innerHTML
            if once == twice {
                fixedPoints += 1
            } else {
                let a = Array(once.utf8), b = Array(twice.utf8)
                let at = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
                print("not a fixed point: \(name) at byte \(at): \(String(decoding: a[at..<min(at + 80, a.count)], as: UTF8.self).debugDescription)")
            }
        }
        let megabytes = Double(pages.reduce(0) { $0 + $1.1.count }) / 1e6
        print(String(format: "readability corpus: %d pages, %.1f MB, parse %.2f ms/page (%.1f MB/s, this build)",
                     pages.count, megabytes, parseSeconds * 1000 / Double(pages.count), megabytes / parseSeconds))
        print("serialization fixed points \(fixedPoints)/\(pages.count)")
        #expect(fixedPoints == pages.count)
    }
}
