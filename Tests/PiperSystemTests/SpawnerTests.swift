import Foundation
import PiperSystem
import PiperTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The spawner starts real programs (/bin/sh) and the tests read what the child saw.
@Suite(.ownThread) struct SpawnerTests {
    let environment = ["PATH": "/usr/bin:/bin"]

    /// Runs `script` with `sh -c`, its stdout on a pipe; returns what it printed and its exit status.
    func run(_ script: String, configure: (inout ProcessSpawner) -> Void = { _ in }) throws -> (String, Int32) {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        var spawner = ProcessSpawner(program: "/bin/sh", arguments: ["-c", script], environment: environment)
        spawner.stdout = .fd(fds[1])
        configure(&spawner)
        let spawned = Result { try spawner.spawn() }
        close(fds[1])
        defer { close(fds[0]) }
        let pid = try spawned.get()
        let output = FileHandle(fileDescriptor: fds[0], closeOnDealloc: false).readDataToEndOfFile()
        return (String(decoding: output, as: UTF8.self), ProcessSpawner.waitForExit(pid))
    }

    @Test func runsAShellThatPrintsToAPipe() throws {
        let (output, status) = try run("echo hello from sh; exit 3")
        #expect(output == "hello from sh\n")
        #expect(status == 3)
    }

    @Test func theChildSeesNoInheritedDescriptor() throws {
        // Opened without O_CLOEXEC: exec alone would hand it to the child.
        let leaky = open("/dev/null", O_RDONLY)
        try #require(leaky > 2)
        defer { close(leaky) }
        let (output, _) = try run("if [ -e /proc/self/fd/\(leaky) ]; then echo open; else echo closed; fi")
        #expect(output == "closed\n")
    }

    @Test func extraDescriptorsReachTheirNumbersEvenWhenTheyCross() throws {
        // Two pipes whose write ends go to fds 4 and 3: the swap must not clobber either.
        var first: [Int32] = [-1, -1], second: [Int32] = [-1, -1]
        try #require(pipe(&first) == 0 && pipe(&second) == 0)
        defer { close(first[0]); close(second[0]) }
        let (_, status) = try run("echo three >&3; echo four >&4") { spawner in
            spawner.extraDescriptors = [3: second[1], 4: first[1]]
        }
        close(first[1]); close(second[1])
        #expect(status == 0)
        #expect(String(decoding: FileHandle(fileDescriptor: second[0]).readDataToEndOfFile(), as: UTF8.self) == "three\n")
        #expect(String(decoding: FileHandle(fileDescriptor: first[0]).readDataToEndOfFile(), as: UTF8.self) == "four\n")
    }

    /// The shell's pid, process group and session, from /proc/<pid>/stat (fields 1, 5 and 6).
    func ids(_ grouping: ProcessSpawner.Grouping) throws -> (pid: Int32, group: Int32, session: Int32) {
        let (stat, _) = try run("cat /proc/$$/stat") { $0.grouping = grouping }
        let pid = try #require(stat.split(separator: " ").first.flatMap { Int32($0) })
        let fields = try #require(stat.split(separator: ")").last).split(separator: " ")
        try #require(fields.count > 4)
        return (pid, try #require(Int32(fields[2])), try #require(Int32(fields[3])))
    }

    @Test func aNewSessionAndANewProcessGroup() throws {
        let child = try ids(.newSession)
        #expect(child.session == child.pid && child.group == child.pid, "\(child)")

        var input: [Int32] = [-1, -1]
        try #require(pipe(&input) == 0)
        var spawner = ProcessSpawner(program: "/bin/sh", arguments: ["-c", "read line"], environment: environment)
        spawner.stdin = .fd(input[0])
        spawner.grouping = .newSession
        let pid = try spawner.spawn()
        close(input[0])
        #expect(getsid(pid) == pid)
        #expect(getsid(pid) != getsid(0))
        close(input[1])
        #expect(ProcessSpawner.waitForExit(pid) != 0)
    }

    @Test func aNewProcessGroupKeepsOurSession() throws {
        let child = try ids(.newProcessGroup)
        #expect(child.session == getsid(0))
        #expect(child.group == child.pid)
        let inherited = try ids(.inherit)
        #expect(inherited.group == getpgrp())
    }

    @Test func signalsStartUnblockedAndAtTheirDefaults() throws {
        _ = ignoreSIGPIPE
        // /proc/self/status: SigBlk and SigIgn as hex masks; SIGPIPE (13) is bit 12.
        let (output, _) = try run("grep -E '^Sig(Blk|Ign)' /proc/self/status")
        let masks = output.split(separator: "\n").reduce(into: [String: UInt64]()) { masks, line in
            let parts = line.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { masks[parts[0]] = UInt64(parts[1], radix: 16) }
        }
        let ignored = try #require(masks["SigIgn"])
        #expect(ignored & (1 << (UInt64(SIGPIPE) - 1)) == 0)
        #expect(masks["SigBlk"] == 0)
    }

    @Test func aBareNameIsLookedUpInPATH() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("piper-spawn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let tool = folder.appendingPathComponent("piper-test-tool")
        try "#!/bin/sh\necho found \"$0\"\n".write(to: tool, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool.path)
        // A folder of that name earlier in PATH is skipped.
        let decoy = folder.appendingPathComponent("decoy")
        try FileManager.default.createDirectory(at: decoy.appendingPathComponent("piper-test-tool"), withIntermediateDirectories: true)
        let path = "\(decoy.path):/nonexistent:\(folder.path):/bin"
        #expect(ExecutableSearch.find("piper-test-tool", environment: ["PATH": path]) == tool.path)

        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        var spawner = ProcessSpawner(program: "piper-test-tool", environment: ["PATH": path])
        spawner.stdout = .fd(fds[1])
        // A script written just now can't be exec'd while a parallel test's fork still holds
        // its file open (ETXTBSY): that child closes it when it execs, so a retry succeeds.
        var pid: pid_t = -1
        for attempt in 1...50 {
            do {
                pid = try spawner.spawn()
                break
            } catch let error as SpawnError where error.errno == ETXTBSY && attempt < 50 {
                usleep(20_000)
            }
        }
        close(fds[1])
        let output = String(decoding: FileHandle(fileDescriptor: fds[0], closeOnDealloc: true).readDataToEndOfFile(), as: UTF8.self)
        #expect(ProcessSpawner.waitForExit(pid) == 0)
        #expect(output == "found \(tool.path)\n")
    }

    @Test func aMissingProgramIsAnError() throws {
        let missing = ProcessSpawner(program: "piper-no-such-tool", environment: ["PATH": "/nonexistent:/bin"])
        let notFound = try #require(throws: SpawnError.self) { try missing.spawn() }
        #expect(notFound == .notFound("piper-no-such-tool"))
        #expect(notFound.description == "piper-no-such-tool: not found in PATH")

        let absent = ProcessSpawner(program: "/nonexistent/piper-tool", environment: environment)
        let failed = try #require(throws: SpawnError.self) { try absent.spawn() }
        #expect(failed == .failed("/nonexistent/piper-tool", errno: ENOENT))
        #expect(failed.description == "/nonexistent/piper-tool: No such file or directory")
    }
}
