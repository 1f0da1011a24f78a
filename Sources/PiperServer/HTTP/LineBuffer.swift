import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Lines gathered for one descriptor and written in batches, each with one `write(2)` in the
/// order the lines came: when 32 KB are waiting, 50 ms after the first line of a batch (one
/// timer per batch), and on `flush()`. nginx's `access_log … buffer=` does the same.
///
/// `@unchecked Sendable`: `pending` and `scheduled` are only touched while holding `lock`,
/// which is also held while writing, so batches cannot overtake one another.
final class LineBuffer: @unchecked Sendable {
    private let descriptor: Int32
    private let lock = NSLock()
    private var pending: [UInt8] = []
    private var scheduled = false
    static let limit = 32 * 1024
    static let delay: DispatchTimeInterval = .milliseconds(50)

    init(descriptor: Int32) {
        self.descriptor = descriptor
        pending.reserveCapacity(Self.limit)
    }

    func append(_ line: String) {
        var line = line
        line.withUTF8 { append(bytes: $0) }
    }

    /// The same for a line given as bytes (without its newline).
    func append(bytes line: UnsafeBufferPointer<UInt8>) {
        lock.withLock {
            pending.append(contentsOf: line)
            pending.append(0x0A)
            if pending.count >= Self.limit {
                writePending()
            } else if !scheduled {
                scheduled = true
                DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + Self.delay) { [self] in flush() }
            }
        }
    }

    func flush() {
        lock.withLock {
            scheduled = false
            writePending()
        }
    }

    /// Called with `lock` held.
    private func writePending() {
        var offset = 0
        pending.withUnsafeBytes { bytes in
            while offset < bytes.count {
                guard let base = bytes.baseAddress else { return }
                let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
                if written > 0 { offset += written } else if written < 0 && errno == EINTR { continue } else { break }
            }
        }
        pending.removeAll(keepingCapacity: true)
    }
}
