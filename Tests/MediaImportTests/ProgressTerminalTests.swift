import Foundation
import PiperTestSupport
import Testing
@testable import MediaImport
import PiperSystem

/// The agent's progress as a person sees it: in a real terminal (tmux), one line per download,
/// none wider than the terminal, redrawn in place.
@Suite(.ownThread) struct ProgressTerminalTests {
    func tmux(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
        try runProcess("/usr/bin/tmux", arguments)
    }

    /// `tmux new-session -d` forks a server that keeps what it inherits: its output goes to
    /// /dev/null rather than to a pipe someone reads to the end, and it is started by the
    /// project's spawner, which gives it an empty signal mask (tmux needs its SIGCHLD).
    func startSession(_ arguments: [String]) throws {
        let spawner = ProcessSpawner(program: "/usr/bin/tmux", arguments: arguments, environment: ProcessInfo.processInfo.environment)
        _ = ProcessSpawner.waitForExit(try spawner.spawn())
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") || ProcessInfo.processInfo.environment["CI"] != nil))
    func theAgentDrawsOneLinePerDownloadWithinTheTerminalsWidth() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        for name in ["a-rather-long-episode-name-for-the-first-download.flac", "second.wav"] {
            let fixture = name.hasSuffix(".flac") ? "sample.flac" : "sample.wav"
            try server.route("/\(name)", .init(body: try Fixtures.bytes(fixture)), faults: [.drip(chunk: 2048, interval: 0.05)])
        }
        let journal = try Journal(state: home.state)
        for name in ["a-rather-long-episode-name-for-the-first-download.flac", "second.wav"] {
            let url = server.url("/\(name)").absoluteString
            _ = try journal.add(url: url, source: url, kind: .url, folder: nil)
        }
        let session = "piper-progress-\(UUID().uuidString.prefix(8))"
        // The test runner may set NO_COLOR for its children; a person's terminal doesn't.
        let env = home.environment().map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        let binary = try requireBinary()
        try startSession(["new-session", "-d", "-s", session, "-x", "60", "-y", "20",
                          "env -u NO_COLOR TERM=xterm \(env) \(binary) agent --once; sleep 60"])
        defer { try? startSession(["kill-session", "-t", session]) }
        var screen = ""
        let drawn = eventually(within: 30) {
            screen = (try? tmux(["capture-pane", "-p", "-t", session]).stdout) ?? ""
            return screen.split(separator: "\n").filter { $0.contains("% [") }.count >= 2
        }
        #expect(drawn, "two progress lines at once:\n\(screen)")
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.allSatisfy { $0.count < 60 }, "every line fits the 60 columns:\n\(screen)")
        #expect(!screen.contains(" | "), "downloads are not joined on one line")
        // Redrawn in place: however long it runs, the pane holds one line per download, not a trail.
        // Once the bars have been drawn again with other figures, the pane still holds two lines.
        let first = lines.filter { $0.contains("% [") }
        var later: [Substring] = []
        let redrawn = eventually(within: 30) {
            later = ((try? tmux(["capture-pane", "-p", "-t", session]).stdout) ?? "").split(separator: "\n").filter { $0.contains("% [") }
            return !later.isEmpty && later != first
        }
        #expect(redrawn, "the bars were redrawn:\n\(later.joined(separator: "\n"))")
        #expect(later.count <= 2, "no scrollback flood:\n\(later.joined(separator: "\n"))")
    }
}

extension ProgressTerminalTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") || ProcessInfo.processInfo.environment["CI"] != nil))
    func shareWaitDrawsTheSameBarFromTheJournal() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        try server.route("/talk.flac", .init(body: try Fixtures.bytes("sample.flac")), faults: [.drip(chunk: 1024, interval: 0.05)])
        let session = "piper-wait-\(UUID().uuidString.prefix(8))"
        let env = home.environment().map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        let binary = try requireBinary()
        try startSession(["new-session", "-d", "-s", session, "-x", "70", "-y", "20",
                          "env -u NO_COLOR TERM=xterm \(env) \(binary) share --wait \(server.url("/talk.flac").absoluteString); sleep 60"])
        defer { try? startSession(["kill-session", "-t", session]) }
        var screen = ""
        let drawn = eventually(within: 30) {
            screen = (try? tmux(["capture-pane", "-p", "-t", session]).stdout) ?? ""
            return screen.contains("talk.flac") && screen.contains("% [")
        }
        #expect(drawn, "share --wait shows the download's bar:\n\(screen)")
        #expect(screen.split(separator: "\n").allSatisfy { $0.count < 70 }, "\(screen)")
        #expect(eventually(within: 60) {
            ((try? tmux(["capture-pane", "-p", "-t", session]).stdout) ?? "").contains("In the library as talk.flac")
        })
    }
}

/// With no terminal watching, the desktop hears how a share ended (`notify-send`; here a
/// stand-in on PATH that records its arguments, since there is no notification daemon).
@Suite(.ownThread) struct DesktopNotificationTests {
    @Test func aBackgroundAgentSaysWhereTheShareLanded() throws {
        let home = try TempHome()
        let bin = home.url.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let record = home.url.appendingPathComponent("notifications.txt")
        let script = bin.appendingPathComponent("notify-send")
        try "#!/bin/sh\nprintf '%s|' \"$@\" >> '\(record.path)'\necho >> '\(record.path)'\n".write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        var env = home.environment(["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"])
        env["PATH"] = bin.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        let (status, _) = try runPiper(["share", Fixtures.media("sample.mp3").path], environment: env)
        #expect(status == 0)
        #expect(eventually(within: 30) {
            ((try? String(contentsOf: record, encoding: .utf8)) ?? "").contains("In the library as sample.mp3")
        }, "notified: \((try? String(contentsOf: record, encoding: .utf8)) ?? "nothing")")
    }
}
