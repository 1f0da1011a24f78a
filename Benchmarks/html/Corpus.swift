import Foundation
import HTML

/// The pages the benchmark parses: every `source.html` under shared/corpus/readability,
/// decoded to UTF-8 once up front (gumbo needs UTF-8 too), so timing covers parsing only.
struct Page {
    let name: String
    let utf8: [UInt8]
    /// The file's bytes as saved (for the decoding benchmark).
    let raw: [UInt8]
}

enum Corpus {
    static func load(_ dir: URL) throws -> [Page] {
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        var pages: [Page] = []
        for name in names {
            let url = dir.appendingPathComponent(name).appendingPathComponent("source.html")
            guard let data = FileManager.default.contents(atPath: url.path) else { continue }
            let raw = [UInt8](data)
            pages.append(Page(name: name, utf8: InputDecoder.decode(raw).utf8, raw: raw))
        }
        return pages
    }

    /// shared/corpus/readability next to the package root: found from the working directory
    /// (run from the package root) or from this source file's location.
    static func defaultDirectory() -> URL {
        let fromCWD = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent("../shared/corpus/readability").standardizedFileURL
        if FileManager.default.fileExists(atPath: fromCWD.path) { return fromCWD }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("../shared/corpus/readability").standardizedFileURL
    }
}

enum Memory {
    /// A line of /proc/self/status in kB (VmHWM = peak resident set, VmRSS = current).
    static func statusKB(_ key: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            return Int(line.split(separator: " ").dropFirst().first(where: { !$0.isEmpty }) ?? "") ?? -1
        }
        return -1
    }
}

/// Wall-clock seconds.
func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// CPU seconds used by this process: steadier than wall time on a busy shared machine.
func cpuNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// CPU seconds used by this thread (for timing one call among interleaved ones).
func threadCPUNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
