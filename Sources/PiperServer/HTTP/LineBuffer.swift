import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Lines gathered for one descriptor and written in batches, each with one `write(2)` in the
/// order the lines came: when 32 KB are waiting, 50 ms after the first line of a batch (one
/// timer per batch), and on `flush()`. nginx's `access_log … buffer=` does the same.
///
/// The pending bytes live in an inline mutex, which is also held while writing, so batches
/// cannot overtake one another.
final class LineBuffer: Sendable {
    private struct Pending {
        var bytes: [UInt8] = []
        var scheduled = false
    }

    private let descriptor: Int32
    private let pending: Mutex<Pending>
    static let limit = 32 * 1024
    static let delay: DispatchTimeInterval = .milliseconds(50)

    init(descriptor: Int32) {
        self.descriptor = descriptor
        var start = Pending()
        start.bytes.reserveCapacity(Self.limit)
        pending = Mutex(start)
    }

    func append(_ line: String) {
        var line = line
        line.withUTF8 { append(bytes: $0) }
    }

    /// The same for a line given as bytes (without its newline).
    func append(bytes line: UnsafeBufferPointer<UInt8>) {
        let schedule = pending.withLock { pending in
            pending.bytes.append(contentsOf: line)
            pending.bytes.append(0x0A)
            if pending.bytes.count >= Self.limit {
                writeOut(&pending.bytes)
                return false
            }
            guard !pending.scheduled else { return false }
            pending.scheduled = true
            return true
        }
        if schedule {
            DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + Self.delay) { [self] in flush() }
        }
    }

    func flush() {
        pending.withLock { pending in
            pending.scheduled = false
            writeOut(&pending.bytes)
        }
    }

    /// Writes `bytes` out and empties them (called with the mutex held).
    private func writeOut(_ bytes: inout [UInt8]) {
        var offset = 0
        bytes.withUnsafeBytes { bytes in
            while offset < bytes.count {
                guard let base = bytes.baseAddress else { return }
                let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
                if written > 0 { offset += written } else if written < 0 && errno == EINTR { continue } else { break }
            }
        }
        bytes.removeAll(keepingCapacity: true)
    }
}
