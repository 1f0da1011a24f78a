import Foundation
import PiperTestSupport
import Testing

/// Every Readability corpus page shared end to end (`--browser never`): the share must succeed
/// and GET on the returned URL must answer 200 with HTML. Prints passed/total and the first
/// difference of each failure; the ratchet fails the test if fewer pages pass than before.
/// (The corpus's tiniest fixtures hold under 140 characters of text: not articles, by design.)
@Suite(.timeLimit(.minutes(5))) struct ShareCorpusTests {
    static let ratchet = 97

    @Test func everyCorpusPageSharesAndIsServed() async throws {
        let corpus = PiperBinary.packageRoot.appendingPathComponent("../shared/corpus/readability").standardizedFileURL
        let names = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter {
            FileManager.default.fileExists(atPath: corpus.appendingPathComponent("\($0)/source.html").path)
        }.sorted()
        try #require(names.count >= 100)
        let dir = try makeShareTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let site = try TestHTTPServer(routes: [:], staticRoot: corpus)
        defer { site.stop() }
        let backend = try ShareBackend(home: dir.appendingPathComponent("serve"), extraArguments: ["--rate-limit", "0"])
        defer { backend.stop() }

        var passed = 0
        for name in names {
            let result = try PiperBinary.run(["share", "--no-clipboard", "--browser", "never", "--backend", backend.baseURL,
                                              site.url("/\(name)/source.html").absoluteString], home: dir.appendingPathComponent("home"))
            guard result.status == 0 else {
                print("share corpus: \(name): exit \(result.status): \(result.stderr.split(separator: "\n").last ?? "")")
                continue
            }
            let (status, html) = try await httpGet(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            guard status == 200, html.contains("<") else {
                print("share corpus: \(name): GET answered \(status)")
                continue
            }
            passed += 1
        }
        print("share corpus: \(passed)/\(names.count) pages shared and served (ratchet \(Self.ratchet))")
        #expect(passed >= Self.ratchet, "fewer corpus pages share end to end than the ratchet")
    }
}
