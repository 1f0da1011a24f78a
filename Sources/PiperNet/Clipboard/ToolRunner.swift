#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Runs a small tool with `input` on its stdin and its output sent to /dev/null, and waits for
/// it with `waitpid`. (Foundation's `Process.waitUntilExit` was seen hanging in the CLI after
/// `xclip` forked its selection owner, leaving the parent a zombie.) Returns the exit status.
enum ToolRunner {
    static func run(_ path: String, _ args: [String], input: String, environment: [String: String]) throws -> Int32 {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw ToolFailure.spawn(String(cString: strerror(errno))) }
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        let readEnd = fcntl(fds[0], F_DUPFD_CLOEXEC, 100)
        close(fds[0])

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, readEnd, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        closeInheritedDescriptors(&actions, keeping: [readEnd])
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        ignoreSIGPIPE
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attr, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([path] + args).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, &attr, argv, envp)
        close(readEnd)
        guard rc == 0 else {
            close(fds[1])
            throw ToolFailure.spawn(String(cString: strerror(rc)))
        }
        let bytes = Array(input.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; break }
            offset += n
        }
        close(fds[1])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS by hand: the macros aren't imported.
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}

/// Adds a close action for every open descriptor above 2 (except `keeping`). A tool that leaves a
/// daemon behind (xclip) must not carry our inherited descriptors with it: a parent that watches
/// for our exit through one of them (Foundation's `Process` does) would wait for the daemon too.
func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t, keeping: Set<Int32>) {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return }
    for entry in entries {
        guard let fd = Int32(entry), fd > 2, !keeping.contains(fd) else { continue }
        // Only descriptors that are still open and not already close-on-exec.
        let flags = fcntl(fd, F_GETFD)
        if flags >= 0 && (flags & FD_CLOEXEC) == 0 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
    }
}

enum ToolFailure: Error, CustomStringConvertible {
    case spawn(String)
    var description: String {
        switch self { case .spawn(let why): return "did not start (\(why))" }
    }
}
