import Dispatch
import Foundation
import Glibc

/// Watches `inbox/` with inotify for files that became complete there (`IN_CLOSE_WRITE`: a
/// writer closed it; `IN_MOVED_TO`: it was renamed in) and calls `handler` with their names,
/// on the watcher's own serial queue. Dotfiles and temp names are ignored. An empty name means
/// the kernel's event queue overflowed: rescan the whole folder.
///
/// `@unchecked Sendable`: `fd` and `source` are only touched on `queue` (start/stop hop onto it).
public final class InboxWatcher: @unchecked Sendable {
    package let inbox: URL
    private let handler: @Sendable (String) -> Void
    private let queue = DispatchQueue(label: "piper.inbox-watcher")
    private let onQueue = DispatchSpecificKey<Bool>()
    private var fd: Int32 = -1
    private var source: DispatchSourceRead?

    package init(inbox: URL, handler: @escaping @Sendable (String) -> Void) {
        self.inbox = inbox
        self.handler = handler
        queue.setSpecific(key: onQueue, value: true)
    }

    deinit {
        source?.cancel()
    }

    /// Starts watching. Events for files landed before this call are not replayed: scan the
    /// folder once after `start()` (`LibraryImporter.watch` does both).
    package func start() throws {
        try queue.sync {
            guard source == nil else { return }
            let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard fd >= 0 else { throw ImportError.io("cannot start watching the inbox (inotify_init1 errno \(errno))") }
            guard inotify_add_watch(fd, inbox.path, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO)) >= 0 else {
                close(fd)
                throw ImportError.io("cannot watch \(inbox.path) (errno \(errno))")
            }
            self.fd = fd
            let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
            // The reader asks before each call whether this watch still runs: a handler that stops
            // the watcher must see no further call, not even for names read in the same batch.
            source.setEventHandler(handler: InboxWatcherEvents.makeReader(fd: fd, isStopped: { [weak self] in self?.fd != fd }, handler: handler))
            source.setCancelHandler { close(fd) }
            source.resume()
            self.source = source
        }
    }

    /// Stops watching; no handler call starts after this returns. Safe to call from the handler.
    package func stop() {
        let body = {
            self.source?.cancel()
            self.source = nil
            self.fd = -1
        }
        if DispatchQueue.getSpecific(key: onQueue) == true { body() } else { queue.sync(execute: body) }
    }
}

/// Reading and decoding inotify events: plain functions, kept off any actor (C and Dispatch
/// call them on their own threads).
enum InboxWatcherEvents {
    /// `isStopped` is asked on the watcher's queue before each read and each call.
    static func makeReader(fd: Int32, isStopped: @escaping @Sendable () -> Bool, handler: @escaping @Sendable (String) -> Void) -> @Sendable () -> Void {
        return {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while !isStopped() {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                guard n > 0 else { return }
                let events = decode(Array(buffer[0..<n]))
                if events.overflowed, !isStopped() { handler("") }   // events were lost: rescan everything
                for name in events.names where !LibraryImporter.isTemporaryName(name) {
                    if isStopped() { return }
                    handler(name)
                }
            }
        }
    }

    /// `struct inotify_event { int wd; uint32_t mask, cookie, len; char name[len]; }`, packed
    /// back to back; `name` is NUL-padded. `IN_Q_OVERFLOW` means the kernel dropped events.
    static func decode(_ bytes: [UInt8]) -> (names: [String], overflowed: Bool) {
        var names: [String] = []
        var overflowed = false
        var offset = 0
        let header = 16
        while offset + header <= bytes.count {
            let (mask, len) = bytes.withUnsafeBytes {
                ($0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self), Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
            }
            if mask & UInt32(IN_Q_OVERFLOW) != 0 { overflowed = true }
            let start = offset + header
            let end = min(start + len, bytes.count)
            let raw = bytes[start..<end].prefix { $0 != 0 }
            if !raw.isEmpty { names.append(String(decoding: raw, as: UTF8.self)) }
            offset = start + len
        }
        return (names, overflowed)
    }
}
