#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Finds processes by an environment marker (`NAME=value` in `/proc/<pid>/environ`). Chromium
/// starts helpers outside its process group (crashpad handlers), and they all inherit the
/// environment, so a per-launch marker finds every process of one launch. Zombies are skipped:
/// they are already dead and only wait for their parent to reap them.
enum ProcessScan {
    static func livePIDs(withEnvironment marker: String) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        let needle = Array(marker.utf8)
        var found: [pid_t] = []
        for entry in entries {
            guard let pid = pid_t(entry), pid != getpid() else { continue }
            guard let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { continue }
            let hit = environ.split(separator: 0, omittingEmptySubsequences: true).contains { Array($0) == needle }
            guard hit, !isZombie(pid) else { continue }
            found.append(pid)
        }
        return found
    }

    /// State field of `/proc/<pid>/stat` (after the parenthesised command name).
    static func isZombie(_ pid: pid_t) -> Bool {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat"),
              let close = data.lastIndex(of: UInt8(ascii: ")")), close + 2 < data.count else { return true }
        return data[close + 2] == UInt8(ascii: "Z")
    }
}
