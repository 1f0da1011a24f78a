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

    /// Returns after a change in a watched folder, after `timeout` seconds, or as soon as `stop`
    /// is requested (its pipe is polled beside the folders').
    func wait(timeout: Double, stop: AgentStop? = nil) {
        let stopFD = stop?.descriptor ?? -1
        guard fd >= 0 || stopFD >= 0 else {
            Thread.sleep(forTimeInterval: timeout)
            return
        }
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)]
        _ = poll(&fds, nfds_t(fds.count), Int32(max(timeout, 0) * 1000))
        if fd >= 0 { drain() }
    }

    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
    }
}
