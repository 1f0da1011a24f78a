import Foundation
import PiperTestSupport
import Testing

/// `piper extract URL` loads the page through the share loaders (plain HTTP for a non-X link).
@Suite(.ownThread, .timeLimit(.minutes(1))) struct ShareExtractURLTests {
    @Test func extractsAPageByURL() throws {
        let corpus = PiperBinary.packageRoot.appendingPathComponent("../shared/corpus/readability").standardizedFileURL
        let site = try TestHTTPServer(routes: [:], staticRoot: corpus)
        defer { site.stop() }
        let result = try PiperBinary.run(["extract", "--json", site.url("/001/source.html").absoluteString])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect((object["title"] as? String)?.isEmpty == false)
        #expect((object["length"] as? Int ?? 0) > 500)
    }

    @Test func anHTTPErrorIsReported() throws {
        let site = try TestHTTPServer(routes: [:])
        defer { site.stop() }
        let result = try PiperBinary.run(["extract", site.url("/missing").absoluteString])
        #expect(result.status != 0)
        #expect(result.stderr.contains("404"))
    }
}
