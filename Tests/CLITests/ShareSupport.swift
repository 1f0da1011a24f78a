import Foundation
import PiperTestSupport
#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `piper serve --port 0` in its own state folder, for the share tests.
/// `@unchecked Sendable`: set once in `init`, then only read; `stop()` is idempotent.
final class ShareBackend: @unchecked Sendable {
    let process = Process()
    let baseURL: String

    init(home: URL, extraArguments: [String] = []) throws {
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        process.executableURL = PiperBinary.url
        process.arguments = ["serve", "--port", "0", "--db", home.appendingPathComponent("serve.sqlite").path] + extraArguments
        var env = ProcessInfo.processInfo.environment
        env["PIPER_HOME"] = home.path
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = readFirstLine(out)
        guard line.hasPrefix("listening on ") else {
            kill(process.processIdentifier, SIGKILL)
            throw ShareSetupError.backendDidNotStart(line)
        }
        baseURL = String(line.dropFirst("listening on ".count))
    }

    deinit { stop() }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

enum ShareSetupError: Error { case backendDidNotStart(String), badURL(String), commandFailed(String) }

/// GET with URLSession (tests may use FoundationNetworking; the CLI never does).
func httpGet(_ url: String) async throws -> (status: Int, body: String) {
    guard let u = URL(string: url) else { throw ShareSetupError.badURL(url) }
    let (data, response) = try await URLSession.shared.data(from: u)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
}

func makeShareTempDir() throws -> URL {
    try makeTemporaryDirectory("share")
}

/// Runs a program to completion (see PiperTestSupport's `runProcess`).
@discardableResult
func runTool(_ path: String, _ args: [String], environment: [String: String]? = nil) throws -> (status: Int32, out: String) {
    let result = try runProcess(path, args, environment: environment)
    return (result.status, result.stdout)
}

/// True when `CI` is set: a missing chromium or Xvfb then fails instead of skipping.
let shareIsCI = !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty
