import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import MediaImport
#if canImport(Glibc)
import Glibc
#endif

/// A state folder on a real 40 MB tmpfs (mounting needs root, as CI has; elsewhere the suite
/// is skipped, and under CI a failed mount is an error).
final class SmallDisk {
    let mountPoint: URL

    static let canMount: Bool = {
        guard let disk = try? SmallDisk(megabytes: 1) else {
            if ProcessInfo.processInfo.environment["CI"] != nil { return true }   // let the test fail loudly
            return false
        }
        _ = disk
        return true
    }()

    init(megabytes: Int) throws {
        mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent("piper-disk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        let status = try runProcess("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", mountPoint.path]).status
        guard status == 0 else {
            try? FileManager.default.removeItem(at: mountPoint)
            throw FixtureError("mount -t tmpfs failed with status \(status)")
        }
    }

    deinit {
        _ = try? runProcess("/bin/umount", ["-l", mountPoint.path])
        try? FileManager.default.removeItem(at: mountPoint)
    }

    var state: StateFolder { StateFolder(url: mountPoint.appendingPathComponent("home")) }

    /// Fills the disk with a file of `megabytes`.
    func fill(megabytes: Int) throws -> URL {
        let filler = mountPoint.appendingPathComponent("filler")
        try Data(repeating: 7, count: megabytes << 20).write(to: filler)
        return filler
    }
}

@Suite(.ownThread, .enabled(if: SmallDisk.canMount)) struct DiskFullTests {
    func settings() -> AgentSettings { FastSettings.agent }

    /// 20 MB of a real WAV file's bytes (its header, then its samples over and over).
    func twentyMegabytes() throws -> [UInt8] {
        let wav = try Fixtures.bytes("sample.wav")
        var body: [UInt8] = []
        body.reserveCapacity(20_000_000)
        while body.count < 20_000_000 { body += wav }
        return Array(body.prefix(20_000_000))
    }

    func partials(_ state: StateFolder) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: state.downloads.path)) ?? []).filter { $0.hasSuffix(".part") }
    }

    @Test(arguments: [false, true])
    func aFullDiskEndsTheJobWithTheReasonAndRecoversOnceSpaceIsFree(announcesLength: Bool) throws {
        let disk = try SmallDisk(megabytes: 40)
        let state = disk.state
        try state.ensure()
        let filler = try disk.fill(megabytes: 30)
        let server = try TestHTTPServer()
        let body = try twentyMegabytes()
        try server.route("/big.wav", .init(body: body), faults: announcesLength ? [] : [.noContentLength])
        let url = server.url("/big.wav").absoluteString
        let journal = try Journal(state: state)
        let first = try journal.add(url: url, source: url, kind: .url, folder: nil).entry

        _ = try Agent(state: state, settings: settings(), importer: nil).run(once: true)
        let failed = try #require(try journal.entry(id: first.id))
        #expect(failed.state == .failed, "the journal says so, not 'downloading'")
        #expect(failed.reason?.hasPrefix("Not enough disk space (needs ") == true, "\(failed.reason ?? "no reason")")
        #expect(partials(state).isEmpty, "nothing partial is left")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: state.inbox.path)) ?? []).isEmpty)
        if announcesLength {
            #expect(try server.requests("/big.wav").count == 1, "a failed reservation stops at once")
        }

        try FileManager.default.removeItem(at: filler)
        let again = try journal.add(url: url, source: url, kind: .url, folder: nil)
        #expect(!again.alreadyQueued)
        _ = try Agent(state: state, settings: settings(), importer: nil).run(once: true)
        #expect(try journal.entry(id: again.entry.id)?.state == .landed)
        let landed = state.inbox.appendingPathComponent("big.wav")
        #expect(try Fixtures.sha256(landed) == SHA256.hex(of: body))
    }

    /// A full disk at import (the library on a small tmpfs, the state folder elsewhere): the job
    /// fails with its reason, which `share --wait` and `piper downloads` say and the agent
    /// counts; once space is free, `piper downloads retry` imports the file it kept.
    @Test func aFullDiskAtImportFailsTheJobWithItsReasonAndIsRetryable() throws {
        let disk = try SmallDisk(megabytes: 20)
        let library = disk.mountPoint.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        let filler = library.appendingPathComponent("filler.bin")
        FileManager.default.createFile(atPath: filler.path, contents: Data(count: 17 << 20))
        let home = try makeTemporaryDirectory("fullimport")
        let episode = home.appendingPathComponent("episode.wav")
        try Data(try twentyMegabytes().prefix(5_000_000)).write(to: episode)
        let environment = ProcessInfo.processInfo.environment.merging(["PIPER_HOME": home.appendingPathComponent("home").path,
                                                                         "PIPER_LIBRARY": library.path]) { $1 }
        let shared = try runProcessCapturing(try requireBinary(), ["share", "--wait", "--no-clipboard", episode.path], environment: environment)
        #expect(shared.status != 0, "share --wait ends, and says it failed: \(shared.stderr)")
        #expect(shared.stderr.contains("Not enough disk space to import it"), "\(shared.stderr)")
        let listed = try runProcessCapturing(try requireBinary(), ["downloads", "--json"], environment: environment)
        let jobs = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], "\(listed.stdout)")
        let job = try #require(jobs.first, "\(listed.stdout)")
        #expect(job["state"] as? String == "failed", "\(job)")
        #expect((job["reason"] as? String)?.contains("No space left on device") == true, "\(job)")
        let id = try #require(job["id"] as? String)

        try FileManager.default.removeItem(at: filler)
        let retried = try runProcessCapturing(try requireBinary(), ["downloads", "retry", id], environment: environment)
        #expect(retried.status == 0, "\(retried.stderr)")
        // The retry starts an agent (or one is still finishing the queue): the file arrives.
        let agent = try runProcessCapturing(try requireBinary(), ["agent", "--once"], environment: environment)
        #expect(agent.status == 0, "\(agent.stderr)")
        let imported = eventually(within: 60) { FileManager.default.fileExists(atPath: library.appendingPathComponent("episode.wav").path) }
        #expect(imported, "imported once space was free: \((try? FileManager.default.contentsOfDirectory(atPath: library.path)) ?? [])")
        #expect((try FileManager.default.contentsOfDirectory(atPath: library.path)).filter { $0.hasPrefix(".piper-") }.isEmpty)
    }
}
