import CSystem
#if canImport(Glibc)
import Glibc
#endif

/// The descriptors a child gets, as posix_spawn file actions. Each source descriptor is first
/// copied above every target number (close-on-exec), so one `dup2` can never clobber the source
/// of another (the browser's pipe ends onto 3 and 4, say). After the `dup2`s, one close-from
/// action closes everything above the highest target in the child. Made, used and closed within
/// one `spawn()`; its copies are ours to close (`closeCopies`).
struct DescriptorLayout {
    private var dups: [(copy: Int32, target: Int32)] = []
    private var nulls: [Int32] = []
    private let firstClosed: Int32

    init(_ targets: [Int32: ProcessSpawner.Descriptor]) throws {
        let highest = targets.keys.max() ?? 2
        firstClosed = highest + 1
        for (target, descriptor) in targets.sorted(by: { $0.key < $1.key }) {
            switch descriptor {
            case .null:
                nulls.append(target)
            case .fd(let source):
                let copy = fcntl(source, F_DUPFD_CLOEXEC, firstClosed)
                guard copy >= 0 else {
                    let code = errno
                    closeCopies()
                    throw SpawnError.failed("descriptor \(source)", errno: code)
                }
                dups.append((copy, target))
            }
        }
    }

    /// The file actions, in order: 0, or the first errno value.
    func addActions(to actions: inout posix_spawn_file_actions_t) -> Int32 {
        for (copy, target) in dups {
            let rc = posix_spawn_file_actions_adddup2(&actions, copy, target)
            if rc != 0 { return rc }
        }
        for target in nulls {
            let rc = posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0)
            if rc != 0 { return rc }
        }
        // glibc's close-from action (see CSystem's shim.h): close_range in the child.
        return piper_spawn_add_close_from(&actions, firstClosed)
    }

    /// Closes our copies (after the spawn, or when setup fails).
    func closeCopies() {
        for (copy, _) in dups { close(copy) }
    }
}
