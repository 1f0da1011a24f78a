import Foundation
import MediaImport
import PiperCore

// The crash tests' agent, not part of the `piper` tool: `piper agent` on the state folder the
// environment names (PIPER_HOME, PIPER_LIBRARY, the PIPER_AGENT_* and PIPER_DOWNLOAD_*
// settings), which stops at the checkpoint its first argument names and sleeps there for an
// hour, so a test can kill it at that point with SIGKILL.
//
//   piper-checkpoint-agent downloaded|landed|library-copy [--once]

/// Stops the thread that reaches `checkpoint`; every other checkpoint passes.
struct StopAt: AgentCheckpoints {
    let checkpoint: AgentCheckpoint
    func reached(_ point: AgentCheckpoint) {
        guard point == checkpoint else { return }
        FileHandle.standardError.write(Data("stopped at \(point.rawValue)\n".utf8))
        Thread.sleep(forTimeInterval: 3600)
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let first = arguments.first, let checkpoint = AgentCheckpoint(rawValue: first),
      arguments.dropFirst().allSatisfy({ $0 == "--once" }) else {
    let names = AgentCheckpoint.allCases.map(\.rawValue).joined(separator: "|")
    FileHandle.standardError.write(Data("usage: piper-checkpoint-agent \(names) [--once]\n".utf8))
    exit(64)
}
let environment = ProcessInfo.processInfo.environment
let state = StateFolder.resolve(environment: environment)
let stop = StopAt(checkpoint: checkpoint)
do {
    let importer = try LibraryImporter(state: state)
    importer.checkpoints = stop
    let agent = Agent(state: state, settings: AgentSettings.from(environment: environment), importer: importer,
                      log: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }, checkpoints: stop)
    _ = try agent.run(once: arguments.contains("--once"))
} catch {
    FileHandle.standardError.write(Data("piper-checkpoint-agent: \(error)\n".utf8))
    exit(1)
}
