import Foundation
import PiperTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Writes to a pipe whose reader has gone become EPIPE errors instead of a fatal SIGPIPE.
private let ignoreSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN) }()

/// Runs the built `piper` binary (built beside the test bundle) and captures its output.
/// Each run gets a fresh temporary PIPER_HOME unless the caller passes one.
struct PiperBinary {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The built binary (`PiperTestSupport`'s one locator).
    static var url: URL { PiperExecutable.url }

    /// The package root (for `../shared`), found from this file's path.
    static let packageRoot = PiperTestSupport.packageRoot

    static func freshHome() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("piper-cli-\(UUID().uuidString)")
    }

    @discardableResult
    static func run(_ arguments: [String], home: URL? = nil, environment: [String: String] = [:],
                    stdin: Data? = nil) throws -> Result {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["PIPER_HOME"] = (home ?? freshHome()).path
        env.removeValue(forKey: "PIPER_BACKEND_URL")
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin {
            // A child that exits without reading its input must fail the test, not kill the runner.
            _ = ignoreSIGPIPE
            try? input.fileHandleForWriting.write(contentsOf: stdin)
        }
        try input.fileHandleForWriting.close()
        // Read both pipes before waiting so a large output cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        group.enter()
        DispatchQueue.global().async { outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        errData = err.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}
