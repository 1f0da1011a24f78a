import Foundation
import Glibc
import PiperTestSupport
import PiperCore
@testable import MediaImport

let mediaFixtures = packageRoot.appendingPathComponent("../shared/fixtures/media").standardizedFileURL

func fixture(_ name: String) -> URL { mediaFixtures.appendingPathComponent(name) }

/// Landing and listing files in a `TempHome`'s inbox and library.
extension TempHome {
    /// Lands a file in the inbox the way the downloader does: write beside it, then rename in.
    @discardableResult
    func land(_ source: URL, as name: String? = nil) throws -> URL {
        try land(data: Data(contentsOf: source), as: name ?? source.lastPathComponent)
    }

    @discardableResult
    func land(data: Data, as name: String) throws -> URL {
        let staging = root.appendingPathComponent("staging-\(UUID().uuidString)")
        try Self.write(data, to: staging)
        // A process another test spawns at the moment of the write shares the open file until
        // it execs; landed while that copy is open, the file would be (rightly) taken as still
        // being written, and its last close would report it again. Land it once nobody has it.
        try waitUntilClosed(staging)
        let target = state.inbox.appendingPathComponent(name)
        try FileManager.default.moveItem(at: staging, to: target)
        return target
    }

    /// Writes through a descriptor opened close-on-exec: a child another test spawns meanwhile
    /// can hold it only until it execs, never for its whole life (a server, a browser).
    private static func write(_ data: Data, to file: URL) throws {
        let fd = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ImportError.io("cannot create \(file.lastPathComponent): errno \(errno)") }
        defer { close(fd) }
        var offset = 0
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                guard n > 0 else { throw ImportError.io("cannot write \(file.lastPathComponent): errno \(errno)") }
                offset += n
            }
        }
    }

    private func waitUntilClosed(_ file: URL) throws {
        let deadline = Date().addingTimeInterval(20)
        while OpenFiles.openForWriting(in: file.deletingLastPathComponent().path)?.contains(file.path) == true {
            guard Date() < deadline else { throw ImportError.io("\(file.lastPathComponent) stayed open for writing") }
            usleep(1_000)
        }
    }

    func files(under dir: URL) -> [String] {
        guard let e = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var out: [String] = []
        for case let url as URL in e where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            out.append(String(url.standardizedFileURL.path.dropFirst(dir.standardizedFileURL.path.count + 1)))
        }
        return out.sorted()
    }

}

/// Fixture facts, read from the files themselves: tags with TagLib's own tool; durations from
/// the stream headers (FLAC STREAMINFO 140,544 samples at 22,050 Hz = 6.374 s; the same count in
/// the Ogg granules, the WAV/AIFF/CAF data, and the MP3 Info frames less LAME delay and padding;
/// MP4 `mvhd` 6,374/1,000 and 2,044/1,000).
struct FixtureFacts: Sendable {
    let file: String
    let format: MediaFormat
    let title: String
    let author: String?
    let album: String?
    let duration: Double
}

let realFixtures: [FixtureFacts] = [
    FixtureFacts(file: "sample.mp3", format: .mp3, title: "Episode One", author: "Piper Test Cast", album: "Fixtures", duration: 6.374),
    FixtureFacts(file: "sample.m4a", format: .m4a, title: "Short Story", author: "A. Writer", album: nil, duration: 6.374),
    FixtureFacts(file: "sample.m4b", format: .m4a, title: "Audiobook Sample", author: "Narrator Name", album: nil, duration: 6.374),
    FixtureFacts(file: "sample.flac", format: .flac, title: "Lossless", author: "Piper Test Cast", album: nil, duration: 6.374),
    FixtureFacts(file: "sample.ogg", format: .oggVorbis, title: "Vorbis Episode", author: nil, album: nil, duration: 6.374),
    FixtureFacts(file: "sample.opus", format: .oggOpus, title: "Opus Episode", author: nil, album: nil, duration: 6.374),
    FixtureFacts(file: "sample.wav", format: .wav, title: "sample", author: nil, album: nil, duration: 6.374),
    FixtureFacts(file: "sample.aiff", format: .aiff, title: "sample", author: nil, album: nil, duration: 6.374),
    FixtureFacts(file: "sample.caf", format: .caf, title: "sample", author: nil, album: nil, duration: 6.374),
    FixtureFacts(file: "sample.mp4", format: .mp4, title: "sample", author: nil, album: nil, duration: 2.044),
    FixtureFacts(file: "sample.mov", format: .mov, title: "sample", author: nil, album: nil, duration: 2.044),
]

/// The impostors and the start of the reason each must be rejected with.
let impostors: [(file: String, reason: String)] = [
    ("empty.mp3", "empty file"),
    ("error-page-named.mp3", "HTML page"),
    ("random-bytes.m4b", "unrecognised data"),
]

/// Runs python3 with a script (used to build synthetic zips: nested, symlink, bomb).
func python(_ script: String, arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script] + arguments
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
}
