import Foundation
import PiperTestSupport
import Testing

/// The layer checker (scripts/check-layers) passes on the real tree and catches violations.
@Suite(.ownThread) struct LayerCheckTests {
    func runChecker(_ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", PiperBinary.packageRoot.appendingPathComponent("scripts/check-layers").path] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func realTreeRespectsLayers() throws {
        let (status, output) = try runChecker([])
        #expect(status == 0, "\(output)")
        #expect(output.contains("respect their layers and the adapters' order"))
    }

    @Test func checkerCatchesACoreImportingGlibcOrAnAdapterAndTheCLIImportingACShim() throws {
        let fixture = PiperBinary.packageRoot.appendingPathComponent("scripts/fixtures/layers-violation").path
        let (status, output) = try runChecker(["--root", fixture])
        #expect(status == 1)
        #expect(output.contains("HTML imports Glibc"))
        #expect(output.contains("piper imports CCurl"))
        #expect(output.contains("PiperCore imports PiperSystem: cores never import an adapter"))
    }

    /// Adapters stack PiperSystem ← PiperSQLite ← MediaImport ← PiperServer (PiperNet beside
    /// PiperSQLite): an import upward or sideways fails the check, one downward does not.
    @Test func checkerCatchesAnAdapterImportingOneNotBelowIt() throws {
        let fixture = PiperBinary.packageRoot.appendingPathComponent("scripts/fixtures/layers-violation").path
        let (status, output) = try runChecker(["--root", fixture])
        #expect(status == 1)
        #expect(output.contains("Sources/PiperSQLite/Bad.swift:2: PiperSQLite imports MediaImport: an adapter imports only adapters below it (PiperSystem)"), "\(output)")
        #expect(output.contains("Sources/PiperSQLite/Bad.swift:3: PiperSQLite imports PiperNet"), "a sibling, even @testable: \(output)")
        #expect(!output.contains("PiperSQLite imports PiperSystem"), "\(output)")
        #expect(!output.contains("Sources/MediaImport/"), "MediaImport may import PiperSQLite and PiperSystem: \(output)")
    }

    /// libcurl options are PiperSystem's: an adapter naming one in code fails the check; comment
    /// lines, and PiperSystem itself, do not.
    @Test func checkerCatchesALibcurlOptionAbovePiperSystem() throws {
        let fixture = PiperBinary.packageRoot.appendingPathComponent("scripts/fixtures/layers-violation").path
        let (status, output) = try runChecker(["--root", fixture])
        #expect(status == 1)
        #expect(output.contains("Sources/PiperNet/Bad.swift:6: PiperNet sets a libcurl option (CURLOPT_FOLLOWLOCATION)"), "\(output)")
        #expect(!output.contains("CURLOPT_USERAGENT"), "a comment line and PiperSystem may name options: \(output)")
        #expect(!output.contains("CURLOPT_MAXREDIRS"), "\(output)")
    }
}
