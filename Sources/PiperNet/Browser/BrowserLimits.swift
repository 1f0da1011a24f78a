#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// How large the server's browser may grow, whatever its pages do: Chromium's own limits (its
/// renderer processes, each renderer's JavaScript heap) and, when the server may make one, a
/// memory cgroup for the browser's whole process tree (`BrowserCgroup`): the kernel then ends
/// the largest process in it (a renderer, whose tab fails with the crash as its reason) rather
/// than let one share push the server into the machine's OOM killer. `RLIMIT_AS` is no bound
/// here: it counts address space, and Chromium reserves terabytes of it it never touches (V8's
/// pointer-compression cages, PartitionAlloc's pools), so any limit low enough to matter stops
/// it from starting at all.
public struct BrowserLimits: Sendable, Equatable {
    /// Renderer processes at most (`--renderer-process-limit`); beyond it frames share them.
    public var renderers: Int
    /// Each renderer's JavaScript heap in MB (`--js-flags=--max-old-space-size`).
    public var heapMB: Int
    /// The whole browser's memory in bytes, through a cgroup when one can be made (nil: none).
    public var memoryBytes: Int?

    public init(renderers: Int, heapMB: Int, memoryBytes: Int?) {
        self.renderers = renderers
        self.heapMB = heapMB
        self.memoryBytes = memoryBytes
    }

    /// `piper serve`'s: four renderers (one per tab), 512 MB of JavaScript heap each (X's page
    /// uses about a tenth of it), 1.5 GiB for the whole browser.
    public static let server = BrowserLimits(renderers: 4, heapMB: 512, memoryBytes: 1536 << 20)

    /// The flags that ask Chromium to keep to them.
    var flags: [String] {
        ["--renderer-process-limit=\(renderers)", "--js-flags=--max-old-space-size=\(heapMB)"]
    }
}

/// A memory cgroup for one browser launch, made under the server's own cgroup: cgroup v2's
/// `memory.max` when the server's cgroup hands the memory controller to its children (systemd:
/// `Delegate=yes`), else cgroup v1's `memory.limit_in_bytes` when that hierarchy is mounted and
/// writable. The browser enters it before it starts (`ChromiumProcess` runs it through
/// `sh -c 'echo $$ > cgroup.procs; exec chromium …'`), so every process it forks is inside.
/// Removed once the browser has ended.
final class BrowserCgroup: @unchecked Sendable {   // immutable
    let directory: String
    /// The file a process joins it by.
    var procs: String { directory + "/cgroup.procs" }

    private init(directory: String) { self.directory = directory }

    /// A cgroup for one browser holding at most `limit` bytes, or why none can be made.
    static func make(limit: Int) -> Result<BrowserCgroup, CgroupUnavailable> {
        let (parent, version): (String, Int)
        switch hierarchy() {
        case .failure(let why): return .failure(why)
        case .success(let found): (parent, version) = found
        }
        let directory = parent + "/piper-browser-\(getpid())-\(UUID().uuidString.prefix(8))"
        guard mkdir(directory, 0o755) == 0 else {
            return .failure(CgroupUnavailable("cannot make a cgroup in \(parent): \(String(cString: strerror(errno)))"))
        }
        let file = version == 2 ? "memory.max" : "memory.limit_in_bytes"
        guard write(String(limit), to: directory + "/" + file) else {
            let why = String(cString: strerror(errno))
            rmdir(directory)
            return .failure(CgroupUnavailable("cannot set \(file) in \(directory): \(why)"))
        }
        // No swap to spill into, where the kernel offers the setting.
        _ = write("0", to: directory + (version == 2 ? "/memory.swap.max" : "/memory.swappiness"))
        return .success(BrowserCgroup(directory: directory))
    }

    /// Removes the cgroup once its processes are gone (they were killed: give the kernel a moment).
    func remove() {
        for _ in 0..<50 {
            if rmdir(directory) == 0 || errno == ENOENT { return }
            usleep(20_000)
        }
    }

    /// The server's own memory cgroup directory and its version.
    static func hierarchy() -> Result<(String, Int), CgroupUnavailable> {
        guard let own = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8),
              let mounts = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else {
            return .failure(CgroupUnavailable("/proc/self/cgroup cannot be read"))
        }
        let memberships = own.split(separator: "\n").map { $0.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init) }
        // mountinfo: id parent dev root mountpoint options … - fstype source superoptions
        let mountLines = mounts.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        func mount(_ fstype: String, option: String?) -> (root: String, point: String)? {
            for fields in mountLines {
                guard let dash = fields.firstIndex(of: "-"), fields.count > dash + 1, fields[dash + 1] == fstype, dash > 4 else { continue }
                if let option, !(fields.last ?? "").split(separator: ",").contains(Substring(option)) { continue }
                return (fields[3], fields[4])
            }
            return nil
        }
        func directory(_ path: String, in found: (root: String, point: String)) -> String {
            let relative = found.root != "/" && path.hasPrefix(found.root) ? String(path.dropFirst(found.root.count)) : path
            return found.point + (relative == "/" ? "" : relative)
        }
        var v2Reason: String?
        if let path = memberships.first(where: { $0.count == 3 && $0[0] == "0" && $0[1].isEmpty })?[2], let found = mount("cgroup2", option: nil) {
            let dir = directory(path, in: found)
            let delegated = ((try? String(contentsOfFile: dir + "/cgroup.subtree_control", encoding: .utf8)) ?? "").split(separator: " ")
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            if delegated.contains("memory") { return .success((dir, 2)) }
            v2Reason = "the server's cgroup v2 \(dir) does not hand the memory controller to its children (systemd: Delegate=yes)"
        }
        if let path = memberships.first(where: { $0.count == 3 && $0[1].split(separator: ",").contains("memory") })?[2],
           let found = mount("cgroup", option: "memory") {
            let dir = directory(path, in: found)
            if access(dir, W_OK) == 0 { return .success((dir, 1)) }
            return .failure(CgroupUnavailable("the server's memory cgroup \(dir) is not writable"))
        }
        return .failure(CgroupUnavailable(v2Reason ?? "no memory cgroup is mounted"))
    }

    private static func write(_ text: String, to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        return Glibc.write(fd, bytes, bytes.count) == bytes.count
    }
}

/// Why the browser's memory is not capped by a cgroup (the server says so once, at its first browser).
struct CgroupUnavailable: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
