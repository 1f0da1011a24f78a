import Foundation
import PiperTestSupport
import Testing

/// Every suite of the test targets runs its cases on threads of their own (`OwnThreadTrait`
/// says why): a suite without `.ownThread` fails here, named with its file and line.
@Suite(.ownThread) struct SuiteTraitTests {
    @Test func everySuiteRunsItsCasesOnThreadsOfTheirOwn() throws {
        let tests = packageRoot.appendingPathComponent("Tests")
        let files = try #require(FileManager.default.enumerator(atPath: tests.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("TestSupport/") }.sorted()
        var suites = 0
        var missing: [String] = []
        for file in files {
            let text = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() where line.trimmingCharacters(in: .whitespaces).hasPrefix("@Suite") {
                suites += 1
                if !line.contains(".ownThread") { missing.append("\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))") }
            }
            if text.contains("@Test"), !text.contains("@Suite") { missing.append("\(file): @Test functions outside a @Suite") }
        }
        #expect(suites > 100, "found only \(suites) suites under \(tests.path)")
        #expect(missing.isEmpty, "suites without .ownThread:\n\(missing.joined(separator: "\n"))")
    }
}
