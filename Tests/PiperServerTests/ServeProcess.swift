import Foundation
import PiperTestSupport
import Testing

/// The built `piper` binary (`PiperTestSupport`'s one locator).
var piperExecutable: URL { PiperExecutable.url }

/// A running `piper serve` child process. `start` waits for its `listening on` line.
final class ServeProcess {
    let process = Process()
    let url: String
    private let stderrFile: URL

    init(arguments: [String], home: URL, port: Int = 0, environment: [String: String] = [:]) throws {
        process.executableURL = piperExecutable
        process.arguments = ["serve", "--port", String(port)] + arguments
        var env = ProcessInfo.processInfo.environment
        env["PIPER_HOME"] = home.path
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        stderrFile = home.appendingPathComponent("serve-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: stderrFile.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: stderrFile)
        try process.run()
        // Read stdout until the first line (the child flushes it once it is listening).
        let line = readFirstLine(out)
        guard line.hasPrefix("listening on http://") else {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            let log = (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? ""
            throw ServeFailure(message: "piper serve did not start: stdout '\(line)', stderr '\(log)'",
                               status: process.terminationStatus, stderr: log)
        }
        url = String(line.dropFirst("listening on ".count))
    }

    var stderr: String { (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "" }

    /// Sends `signal` and waits for the exit; returns the termination status.
    @discardableResult
    func stop(signal: Int32) -> Int32 {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// SIGTERM first, as systemd stops a service: the server ends its browser (its own process
    /// group, which a SIGKILL of the server would leave running); SIGKILL if it lingers.
    deinit {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { _ = stop(signal: SIGKILL) }
    }
}

struct ServeFailure: Error, CustomStringConvertible {
    let message: String
    /// A `piper serve` that exited before listening: its exit status and stderr.
    var status: Int32?
    var stderr = ""
    var description: String { message }
}
