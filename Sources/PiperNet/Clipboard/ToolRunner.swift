#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PiperSystem

/// Runs a small tool with `input` on its stdin and its output sent to /dev/null, and waits for
/// it with `waitpid`. (Foundation's `Process.waitUntilExit` was seen hanging in the CLI after
/// `xclip` forked its selection owner, leaving the parent a zombie.) The spawner closes every
/// other descriptor in the child, so the selection owner holds none of ours. Returns the exit status.
enum ToolRunner {
    static func run(_ path: String, _ args: [String], input: String, environment: [String: String]) throws -> Int32 {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw ToolFailure.spawn(String(cString: strerror(errno))) }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        ignoreSIGPIPE
        var spawner = ProcessSpawner(program: path, arguments: args, environment: environment)
        spawner.stdin = .fd(fds[0])
        let pid: pid_t
        do {
            defer { close(fds[0]) }   // the child has its copy; ours goes at once
            pid = try spawner.spawn()
        } catch {
            close(fds[1])
            throw ToolFailure.spawn((error as? SpawnError)?.reason ?? "\(error)")
        }
        let bytes = Array(input.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; break }
            offset += n
        }
        close(fds[1])
        return ProcessSpawner.waitForExit(pid)
    }
}

enum ToolFailure: Error, CustomStringConvertible {
    case spawn(String)
    var description: String {
        switch self { case .spawn(let why): return "did not start (\(why))" }
    }
}
