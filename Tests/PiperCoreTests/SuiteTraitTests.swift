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

    /// The test cases share one process and run side by side, so none may change what the
    /// whole process sees: its environment (a proxy set for one case reached a concurrent
    /// URLSession upload and made it fail), its working folder or its umask. Such a case sets
    /// the value on a child process or on the handle it tests instead.
    @Test func noCaseChangesProcessWideState() throws {
        let tests = packageRoot.appendingPathComponent("Tests")
        let files = try #require(FileManager.default.enumerator(atPath: tests.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && $0 != "PiperCoreTests/SuiteTraitTests.swift" }.sorted()
        let calls = ["setenv(", "unsetenv(", "putenv(", "chdir(", "changeCurrentDirectoryPath(", "umask("]
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }
                for call in calls where code.contains(call) { found.append("\(file):\(number + 1): \(code)") }
            }
        }
        #expect(files.count > 100, "found only \(files.count) test files under \(tests.path)")
        #expect(found.isEmpty, "process-wide state changed by a test:\n\(found.joined(separator: "\n"))")
    }
}
