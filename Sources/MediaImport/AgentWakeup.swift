import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Lets an idle long-running agent sleep until something changes instead of polling blind:
/// inotify on `downloads/` (a share writes the journal there: any change) and `inbox/` (a file
/// finished there: closed after writing, or renamed in; a file still being written wakes no one).
/// The class owns the inotify descriptor: `init` creates it, `deinit` closes it. When inotify
/// is unavailable, `wait` simply sleeps for the timeout.
///
/// Not Sendable: used by the agent's loop only.
final class AgentWakeup {
    private let fd: Int32

    init(journal downloads: URL, inbox: URL) {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return }
        _ = inotify_add_watch(fd, downloads.path, UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE))
        _ = inotify_add_watch(fd, inbox.path, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO))
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Returns after a change in a watched folder, after `timeout` seconds, or soon after `stop`
    /// is requested (looked at every quarter second).
    func wait(timeout: Double, stop: AgentStop? = nil) {
        let end = Date().addingTimeInterval(max(timeout, 0))
        repeat {
            let slice = min(end.timeIntervalSinceNow, stop == nil ? timeout : 0.25)
            guard fd >= 0 else {
                Thread.sleep(forTimeInterval: max(slice, 0))
                continue
            }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, Int32(max(slice, 0) * 1000)) > 0 {
                drain()
                return
            }
        } while stop?.isRequested != true && end.timeIntervalSinceNow > 0
    }

    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
    }
}
