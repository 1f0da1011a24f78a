import Foundation
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

    static var url: URL {
        // PIPER_TEST_BINARY runs the suite against another build (the static release binary).
        if let given = ProcessInfo.processInfo.environment["PIPER_TEST_BINARY"], !given.isEmpty {
            return URL(fileURLWithPath: given)
        }
        // The test bundle and the executable both live in the build products folder.
        let products = Bundle.main.bundleURL.pathExtension == "xctest"
            ? Bundle.main.bundleURL.deletingLastPathComponent()
            : URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [products, Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        for dir in candidates {
            let exe = dir.appendingPathComponent("piper")
            if FileManager.default.isExecutableFile(atPath: exe.path) { return exe }
        }
        return products.appendingPathComponent("piper")
    }

    /// The package root (for `../shared`), found from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

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
