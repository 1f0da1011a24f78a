#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PiperSystem

/// One headless Chromium with a DevTools pipe: it reads CDP from fd 3 and writes to fd 4.
/// `init` spawns it (`ProcessSpawner`) in its own process group with a throwaway profile; `terminate()` (and
/// `deinit`, as a backstop) kills the whole group, reaps it and deletes the profile.
/// Not Sendable: the loader that made it drives it from one thread.
final class ChromiumProcess {
    let pid: pid_t
    /// We write CDP requests here (the browser's fd 3).
    let toBrowser: Int32
    /// We read CDP responses and events here (the browser's fd 4).
    let fromBrowser: Int32
    let profileDir: URL
    /// `PIPER_BROWSER_RUN=<uuid>` in the browser's environment: every process of this launch
    /// inherits it, including helpers that leave the process group.
    let marker: String
    /// Set by `terminate()`: the pipes are closed, and their numbers may already belong to
    /// another file of this process, so nothing may be written to or read from them again.
    private(set) var finished = false

    /// - Parameters:
    ///   - executable: path of `chromium` (the Debian wrapper script or the binary).
    ///   - arguments: flags after the executable.
    ///   - profileParent: where the throwaway `--user-data-dir` is created.
    /// The memory cgroup the browser runs in (removed by `terminate`), if any.
    let cgroup: BrowserCgroup?

    init(executable: String, arguments: [String], profileParent: URL, environment: [String: String],
         cgroup: BrowserCgroup? = nil) throws {
        self.cgroup = cgroup
        ignoreSIGPIPE
        let profile = profileParent.appendingPathComponent("piper-chromium-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        profileDir = profile

        // Close-on-exec pipes: our own ends never leak into the browser (nor into any other
        // child); the spawner gives the browser its ends as fds 3 and 4.
        var requestPipe: [Int32] = [-1, -1]
        var responsePipe: [Int32] = [-1, -1]
        guard makePipe(&requestPipe) else { throw BrowserFailure.spawn("pipe: \(String(cString: strerror(errno)))") }
        guard makePipe(&responsePipe) else {
            close(requestPipe[0]); close(requestPipe[1])
            throw BrowserFailure.spawn("pipe: \(String(cString: strerror(errno)))")
        }
        let log = open(profile.appendingPathComponent("chromium.log").path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let logError = errno
        defer { close(requestPipe[0]); close(responsePipe[1]); close(log) }

        let run = UUID().uuidString
        var childEnvironment = environment
        childEnvironment["PIPER_BROWSER_RUN"] = run
        var program = executable
        var argv = ["--user-data-dir=\(profile.path)"] + arguments
        if let cgroup {
            // The shell joins the cgroup and becomes the browser: every process it forks is inside.
            (program, argv) = ("/bin/sh", ["-c", "echo $$ > \"$0\" && exec \"$@\"", cgroup.procs, executable] + argv)
        }
        var spawner = ProcessSpawner(program: program, arguments: argv, environment: childEnvironment)
        // Own process group (killed as one); stdout and stderr to the profile's log.
        spawner.grouping = .newProcessGroup
        spawner.stdout = .fd(log)
        spawner.stderr = .fd(log)
        spawner.extraDescriptors = [3: requestPipe[0], 4: responsePipe[1]]
        let child: pid_t
        do {
            guard log >= 0 else { throw SpawnError.failed("chromium.log", errno: logError) }
            child = try spawner.spawn()
        } catch {
            close(requestPipe[1]); close(responsePipe[0])
            try? FileManager.default.removeItem(at: profile)
            cgroup?.remove()
            throw BrowserFailure.spawn("\(error)")
        }
        pid = child
        marker = "PIPER_BROWSER_RUN=\(run)"
        toBrowser = requestPipe[1]
        fromBrowser = responsePipe[0]
    }

    deinit { terminate() }

    /// The browser's own log (stdout and stderr), for error messages.
    func logTail(maxBytes: Int = 600) -> String {
        guard let data = FileManager.default.contents(atPath: profileDir.appendingPathComponent("chromium.log").path) else { return "" }
        return String(decoding: data.suffix(maxBytes), as: UTF8.self)
    }

    private var exited = false

    /// True once the browser process has ended (it is reaped here if it has just died).
    func hasExited() -> Bool {
        if finished || exited { return true }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exited = true }
        return exited
    }

    /// Kills the browser's process group and reaps it, keeping the pipe's descriptors open (a
    /// thread may still be reading them: their numbers must not be reused under it until
    /// `terminate`).
    func killGroup() {
        guard !finished else { return }
        Glibc.kill(-pid, SIGKILL)
        if !exited {
            Glibc.kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            exited = true
        }
    }

    /// Waits up to `grace` seconds for the browser to exit by itself (after `Browser.close`),
    /// then kills its process group, reaps it and removes the profile. Idempotent.
    func terminate(grace: TimeInterval = 0) {
        guard !finished else { return }
        finished = true
        close(toBrowser)
        var status: Int32 = 0
        var reaped = exited
        let deadline = Date().addingTimeInterval(grace)
        while Date() < deadline {
            if waitpid(pid, &status, WNOHANG) == pid { reaped = true; break }
            usleep(10_000)
        }
        // The group holds the zygote, renderers and the GPU process, which may outlive the browser.
        Glibc.kill(-pid, SIGKILL)
        if !reaped {
            Glibc.kill(pid, SIGKILL)
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        }
        // Helpers outside the group (crashpad handlers) carry the marker: end them too.
        for stray in ProcessScan.livePIDs(withEnvironment: marker) { Glibc.kill(stray, SIGKILL) }
        close(fromBrowser)
        try? FileManager.default.removeItem(at: profileDir)
        cgroup?.remove()
    }
}

/// `pipe` with both ends close-on-exec (Glibc's Swift overlay doesn't expose `pipe2`).
private func makePipe(_ fds: inout [Int32]) -> Bool {
    guard pipe(&fds) == 0 else { return false }
    _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
    return true
}


/// Why the browser failed; mapped to `LoadError.browserFailed` by the loader.
enum BrowserFailure: Error, CustomStringConvertible {
    case spawn(String)
    case protocolError(String)
    case timedOut(String)
    case exited
    case navigation(String)
    /// The tab's renderer died (`Inspector.targetCrashed`): out of memory, or broken by its page.
    case crashed

    var description: String {
        switch self {
        case .spawn(let why): return "Chromium did not start: \(why)"
        case .protocolError(let why): return "DevTools protocol error: \(why)"
        case .timedOut(let what): return "timed out waiting for \(what)"
        case .exited: return "Chromium exited unexpectedly"
        case .navigation(let why): return "navigation failed: \(why)"
        case .crashed: return "the page crashed its tab (it ran out of memory, or broke the renderer)"
        }
    }
}
