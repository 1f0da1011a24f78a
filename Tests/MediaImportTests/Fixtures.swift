import Foundation
import PiperTestSupport
import PiperCore
@testable import MediaImport
#if canImport(Glibc)
import Glibc
#endif

/// Settings that make retries and the agent's polling fast enough for tests.
enum FastSettings {
    static var download: DownloadSettings {
        var s = DownloadSettings()
        s.retryBaseDelay = 0.01
        s.retryMaxDelay = 0.05
        s.stallSeconds = 1
        s.stallBytesPerSecond = 1   // these tests drip on purpose; the speed floor has tests of its own
        return s
    }

    static var agent: AgentSettings {
        var s = AgentSettings()
        s.download.retryBaseDelay = 0.01
        s.download.retryMaxDelay = 0.05
        s.pollInterval = 0.05
        return s
    }
}

/// Shared helpers for the download, journal, agent and share tests.
enum Fixtures {
    /// The package root, from this file's path (Tests/MediaImportTests/<file>).
    static let packageRoot = PiperTestSupport.packageRoot

    static func media(_ name: String) -> URL {
        packageRoot.appendingPathComponent("../shared/fixtures/media/\(name)").standardizedFileURL
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: media(name)))
    }

    /// The built `piper` binary, next to the test bundle.
    static var piperBinary: String? {
        FileManager.default.isExecutableFile(atPath: PiperExecutable.path) ? PiperExecutable.path : nil
    }

    /// SHA-256 of a file, hex, from the system's `sha256sum`.
    static func sha256(_ file: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(String(decoding: data, as: UTF8.self).prefix(64))
    }
}

/// A fresh state folder (`PIPER_HOME`) per test, removed afterwards.
/// `PiperTestSupport`'s `TemporaryFolder` with the state folder's views: `url` is `PIPER_HOME`,
/// `root` the scratch folder it sits in (see `ImportSupport` for landing files in the inbox).
final class TempHome {
    private let folder: TemporaryFolder
    let state: StateFolder
    var url: URL { folder.home }
    var root: URL { folder.url }

    /// `inbox`: create the inbox too, for tests that land files in it or watch it.
    init(inbox: Bool = false) throws {
        folder = try TemporaryFolder("media")
        state = StateFolder(url: folder.home)
        if inbox { try state.ensure(state.inbox) }
    }

    func inboxFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: state.inbox.path)) ?? []).sorted()
    }

    /// Regular files below `library/`, recursively (paths relative to it).
    func libraryFiles() -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: state.library.path) else { return [] }
        var files: [String] = []
        while let path = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let full = state.library.appendingPathComponent(path).path
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue { files.append(path) }
        }
        return files.sorted()
    }

    /// The library paths holding exactly the fixture's bytes (by SHA-256).
    func libraryCopies(of fixture: String) throws -> [String] {
        let want = try Fixtures.sha256(Fixtures.media(fixture))
        return try libraryFiles().filter { try Fixtures.sha256(state.library.appendingPathComponent($0)) == want }
    }

    /// `downloads/t.part`, the file a downloader test downloads into (its folder made).
    func partialFile() throws -> URL {
        try state.ensure(state.downloads)
        return state.downloads.appendingPathComponent("t.part")
    }

    /// The environment for a `piper` process working on this home, with fast retries.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = [
            "PIPER_HOME": url.path,
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "PIPER_DOWNLOAD_RETRY_BASE_MS": "20",
            "PIPER_DOWNLOAD_STALL_SECONDS": "3",
            "PIPER_AGENT_POLL_MS": "100",
        ]
        if let binary = Fixtures.piperBinary { env["PIPER_EXECUTABLE"] = binary }
        env.merge(extra) { _, new in new }
        return env
    }
}

/// Runs the built `piper` with arguments and environment.
func startPiper(_ arguments: [String], environment: [String: String]) throws -> Process {
    try start(URL(fileURLWithPath: try requireBinary()), arguments, environment: environment)
}

/// Runs the crash tests' agent (`Tests/CheckpointAgent`), which works like `piper agent` and
/// stops at `checkpoint` for the test to kill it there.
func startAgentStopping(at checkpoint: AgentCheckpoint, once: Bool, environment: [String: String]) throws -> Process {
    let agent = PiperExecutable.sibling("piper-checkpoint-agent")
    guard FileManager.default.isExecutableFile(atPath: agent.path) else {
        throw FixtureError("\(agent.path) is missing: run 'swift build --build-tests' first")
    }
    return try start(agent, [checkpoint.rawValue] + (once ? ["--once"] : []), environment: environment)
}

private func start(_ executable: URL, _ arguments: [String], environment: [String: String]) throws -> Process {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
}

/// Runs `piper` to completion and returns (status, stdout).
func runPiper(_ arguments: [String], environment: [String: String]) throws -> (Int32, String) {
    let result = try runProcess(try requireBinary(), arguments, environment: environment)
    return (result.status, result.stdout)
}

func requireBinary() throws -> String {
    guard let binary = Fixtures.piperBinary else { throw FixtureError("no built piper at \(PiperExecutable.path)") }
    return binary
}

/// A fixture the test needs could not be set up.
struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func killHard(_ process: Process) {
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
}
