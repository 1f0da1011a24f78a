import Foundation
import PiperTestSupport
import Testing
@testable import MediaImport
#if canImport(Glibc)
import Glibc
#endif

/// No orphans: a real `piper agent --once` killed (SIGKILL) while it copies an import into a
/// library on another file system (a tmpfs) leaves a hidden temp file there; the next agent
/// finds that nobody holds it, removes it, and imports the item exactly once.
@Suite(.ownThread, .timeLimit(.minutes(3)), .enabled(if: SmallDisk.canMount))
struct OrphanTests {
    static func temporaries(in folder: URL) -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? [])
            .filter { URL(fileURLWithPath: $0).lastPathComponent.hasPrefix(".piper-") }
    }

    @Test func aCopyKilledHalfwayLeavesNothingOnceTheNextAgentRuns() throws {
        let disk = try SmallDisk(megabytes: 100)
        let library = disk.mountPoint.appendingPathComponent("library")
        let home = try makeTemporaryDirectory("orphan")
        let state = home.appendingPathComponent("home")
        let inbox = state.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        // An audio file (a WAV header, then silence) of several copy chunks; the agent pauses
        // after the first (`AgentCheckpoint.libraryCopy`) and is killed there.
        let staged = home.appendingPathComponent("book.wav")
        let size = 20 << 20
        var header = Data("RIFF".utf8)
        func le32(_ v: Int) -> Data { withUnsafeBytes(of: UInt32(truncatingIfNeeded: v).littleEndian) { Data($0) } }
        func le16(_ v: Int) -> Data { withUnsafeBytes(of: UInt16(v).littleEndian) { Data($0) } }
        header += le32(36 + size) + Data("WAVEfmt ".utf8) + le32(16) + le16(1) + le16(1) + le32(8000) + le32(16000) + le16(2) + le16(16)
        header += Data("data".utf8) + le32(size)
        FileManager.default.createFile(atPath: staged.path, contents: header)
        guard truncate(staged.path, off_t(header.count + size)) == 0 else { throw FixtureError("cannot size the file") }
        // Settled an hour ago, so the agent takes it at once (it waits for files still changing).
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: staged.path)
        try FileManager.default.moveItem(at: staged, to: inbox.appendingPathComponent("book.wav"))

        let environment = ProcessInfo.processInfo.environment.merging(["PIPER_HOME": state.path, "PIPER_LIBRARY": library.path,
                                                                         "PIPER_AGENT_IDLE_MS": "200"]) { $1 }
        var caught = false
        for _ in 0..<1 where !caught {
            // The long-running agent takes files put into the inbox.
            let agent = try startAgentStopping(at: .libraryCopy, once: false, environment: environment)
            // Kill it once its temp file in the library has some bytes but not all.
            let halfway = eventually(within: 90) {
                Self.temporaries(in: library).contains { name in
                    let bytes = (try? FileManager.default.attributesOfItem(atPath: library.appendingPathComponent(name).path)[.size] as? Int) ?? 0
                    return bytes > 0 && bytes < header.count + size
                }
            }
            killHard(agent)
            caught = halfway && !Self.temporaries(in: library).isEmpty
        }
        try #require(caught, "the agent was never caught in the middle of its copy")

        let recovery = Process()
        recovery.executableURL = URL(fileURLWithPath: try requireBinary())
        recovery.arguments = ["agent"]
        recovery.environment = environment
        recovery.standardOutput = FileHandle.nullDevice
        recovery.standardError = FileHandle.nullDevice
        try recovery.run()
        // Done when the file is in the library, the copy's temp file gone and the inbox empty
        // (the source is removed just after the rename: stopping the agent in between would
        // leave it for the next run).
        let imported = eventually(within: 60) {
            FileManager.default.fileExists(atPath: library.appendingPathComponent("book.wav").path) && Self.temporaries(in: library).isEmpty
                && ((try? FileManager.default.contentsOfDirectory(atPath: inbox.path)) ?? []).filter { !$0.hasPrefix(".") }.isEmpty
        }
        recovery.terminate()
        recovery.waitUntilExit()
        #expect(imported, "the next agent imported it and left nothing: \(Self.temporaries(in: library))")
        let files = (FileManager.default.enumerator(atPath: library.path)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".wav") }
        #expect(files == ["book.wav"], "imported exactly once: \(files)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: inbox.path).filter { !$0.hasPrefix(".") }.isEmpty)
    }

    /// A temp file whose writer is alive (it holds the lock) is left alone; one nobody holds is
    /// removed.
    @Test func onlyTemporariesNobodyHoldsAreRemoved() throws {
        let folder = try makeTemporaryDirectory("temporaries")
        let held = try TemporaryFile(in: folder)
        let orphan = folder.appendingPathComponent(".piper-\(UUID().uuidString).part")
        FileManager.default.createFile(atPath: orphan.path, contents: Data([1, 2, 3]))
        let other = folder.appendingPathComponent("notes.part")
        FileManager.default.createFile(atPath: other.path, contents: Data([1]))
        let removed = TemporaryFile.removeOrphans(in: folder)
        #expect(removed == [orphan.path])
        #expect(FileManager.default.fileExists(atPath: held.url.path), "its writer still holds it")
        #expect(FileManager.default.fileExists(atPath: other.path), "not Piper's")
        held.close()
        // (A process another test forks holds a copy of every descriptor until its exec closes
        // it: the released lock may take a moment to be free.)
        #expect(eventually(within: 5) { !TemporaryFile.removeOrphans(in: folder).isEmpty }, "a released one is an orphan")
        #expect(!FileManager.default.fileExists(atPath: held.url.path))
    }
}
