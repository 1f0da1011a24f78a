import Foundation
import PiperTestSupport
import Testing
@testable import HTML

@Suite(.ownThread) struct TreeConstructionTests {
    /// Every case of every `tree-construction/*.dat` (not `scripted/`), fragment cases
    /// included, each run with the scripting flag it asks for (both when it sets neither).
    @Test func html5libTreeConstruction() throws {
        let folder = TestPaths.html5lib.appendingPathComponent("tree-construction")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".dat") }.sorted()
        try #require(!files.isEmpty, "no tree-construction corpus at \(folder.path)")
        var passed = 0, total = 0, printed = 0
        // TREE_CONSTRUCTION_TRACE=1 names each case on stderr before it runs (finds hangs).
        let trace = ProcessInfo.processInfo.environment["TREE_CONSTRUCTION_TRACE"] != nil
        var failures: [String] = []
        for file in files {
            for testCase in TreeConstructionCase.load(folder.appendingPathComponent(file)) {
                let modes = testCase.scripting.map { [$0] } ?? [true, false]
                for scripting in modes {
                    total += 1
                    if trace { FileHandle.standardError.write(Data("RUN \(file) \(testCase.data.debugDescription)\n".utf8)) }
                    let got = testCase.run(scripting: scripting)
                    if got == testCase.expected {
                        passed += 1
                        continue
                    }
                    failures.append("\(file) scripting=\(scripting) \(testCase.fragmentContext.map { "fragment=\($0) " } ?? "")\(testCase.data.debugDescription)")
                    if printed < 40 {
                        printed += 1
                        print("FAIL \(file) scripting=\(scripting) context=\(testCase.fragmentContext ?? "-")\n  input: \(testCase.data.debugDescription)\n  \(firstDifference(got, testCase.expected))\n--- got\n\(got)\n--- expected\n\(testCase.expected)\n")
                    }
                }
            }
        }
        print("tree-construction \(passed)/\(total)")
        if ProcessInfo.processInfo.environment["TREE_CONSTRUCTION_FAILURES"] != nil {
            print(failures.joined(separator: "\n"))
        }
        let ratchet = try TestPaths.ratchet("tree-construction.txt", "tree-construction")
        #expect(passed >= ratchet, "tree-construction conformance regressed below the ratchet \(ratchet)")
    }
}
