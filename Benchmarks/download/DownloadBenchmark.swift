import Foundation
import MediaImport
import PiperCore
#if canImport(Glibc)
import Glibc
#endif

/// Downloads one URL with Piper's downloader and with `curl -o`, prints MB/s for both, the
/// ratio, this process's peak RSS, and how long `JournalMediaQueue.enqueue` takes.
enum DownloadBenchmark {
    static let rounds = Int(ProcessInfo.processInfo.environment["ROUNDS"] ?? "") ?? 3

    static func run(_ args: [String]) -> Int32 {
        guard args.count == 3, let url = URL(string: args[1]) else {
            FileHandle.standardError.write(Data("usage: piper-bench-download URL WORKDIR\n".utf8))
            return 64
        }
        let work = URL(fileURLWithPath: args[2], isDirectory: true)
        do {
            let ours = work.appendingPathComponent("piper.part")
            let theirs = work.appendingPathComponent("curl.out")
            let curlFirst = try timeCurl(url, to: theirs)   // warms the page cache for both
            try? FileManager.default.removeItem(at: theirs)
            // Alternate the two clients and keep each one's best run: the disk is shared.
            var piper = Double.infinity, curl = Double.infinity
            var size: Int64 = 0, curlSize: Int64 = 0
            for _ in 0..<rounds {
                piper = min(piper, try timePiper(url, to: ours))
                size = fileSize(ours)
                try? FileManager.default.removeItem(at: ours)
                curl = min(curl, try timeCurl(url, to: theirs))
                curlSize = fileSize(theirs)
                try? FileManager.default.removeItem(at: theirs)
            }
            let mb = Double(size) / 1_000_000
            print(String(format: "size             %.0f MB (curl got %.0f MB)", mb, Double(curlSize) / 1_000_000))
            print(String(format: "piper downloader %.0f MB/s  (best of %d: %.2f s)", mb / piper, rounds, piper))
            print(String(format: "curl -o          %.0f MB/s  (best of %d: %.2f s; warm-up run %.2f s)", Double(curlSize) / 1_000_000 / curl, rounds, curl, curlFirst))
            print(String(format: "ratio            %.2fx curl", curl / piper))
            print(String(format: "peak RSS         %.1f MB", peakRSSMegabytes()))
            try enqueueLatency(work: work)
            return 0
        } catch {
            FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
            return 1
        }
    }

    static func timePiper(_ url: URL, to file: URL) throws -> Double {
        let start = DispatchTime.now()
        _ = try Downloader().download(DownloadRequest(url: url, partialFile: file))
        return seconds(since: start)
    }

    static func timeCurl(_ url: URL, to file: URL) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "-f", "-o", file.path, url.absoluteString]
        let start = DispatchTime.now()
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchmarkError.curlFailed(process.terminationStatus) }
        // curl -o leaves the data in the page cache; fsync like the downloader does.
        let fd = open(file.path, O_RDONLY)
        if fd >= 0 { fsync(fd); close(fd) }
        return seconds(since: start)
    }

    /// Enqueue latency: journal write + agent check + (here, dummy) agent start.
    static func enqueueLatency(work: URL) throws {
        let home = work.appendingPathComponent("home", isDirectory: true)
        let queue = JournalMediaQueue(state: StateFolder(url: home),
                                      environment: ["PIPER_HOME": home.path, "PIPER_EXECUTABLE": "/bin/true"])
        var samples: [Double] = []
        for i in 0..<50 {
            let start = DispatchTime.now()
            _ = try queue.enqueue(url: URL(string: "http://127.0.0.1:9/episode-\(i).mp3")!, into: nil)
            samples.append(seconds(since: start) * 1000)
        }
        samples.sort()
        print(String(format: "enqueue          median %.1f ms, p95 %.1f ms, max %.1f ms (50 links)",
                     samples[25], samples[47], samples[49]))
        try? FileManager.default.removeItem(at: home)
    }

    static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    static func fileSize(_ file: URL) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    static func peakRSSMegabytes() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }
}

enum BenchmarkError: Error { case curlFailed(Int32) }
