import Foundation
import Glibc

/// An exclusive `flock` on a file, held from `init` to `deinit` (which unlocks by closing).
/// flock locks belong to the open file description, so two importers in one process exclude
/// each other just like two processes do. Not Sendable: the holder keeps it on its own stack.
package final class ImportLock {
    private let fd: Int32

    /// Blocks until the lock is ours. `fd` is stored only once locked: a throw after it is set
    /// would run `deinit` and close the number a second time.
    package init(path: String) throws {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ImportError.io("cannot open the import lock") }
        while flock(fd, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            close(fd)
            throw ImportError.io("cannot take the import lock")
        }
        self.fd = fd
    }

    deinit { close(fd) }
}

package enum ImportError: Error, CustomStringConvertible, Equatable {
    case io(String)
    package var description: String {
        switch self {
        case .io(let what): return what
        }
    }
}
