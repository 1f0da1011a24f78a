import Foundation

/// One chapter of an audiobook or podcast: its title and where it starts, in seconds.
public struct Chapter: Sendable, Codable, Equatable {
    package var title: String
    package var start: Double

    package init(title: String, start: Double) {
        self.title = title
        self.start = start
    }
}

/// Reads an MP4/QuickTime file's duration (`mvhd`) and its chapters: the Nero `chpl` atom in
/// `moov/udta` first, else the QuickTime chapter track (a text track named by `tref/chap`).
package enum MP4Chapters {
    package struct Movie: Sendable, Equatable {
        package var duration: Double?
        package var chapters: [Chapter]
    }

    package enum Source: Sendable { case any, neroChpl, chapterTrack }

    package static func readMovie(_ file: URL, source: Source = .any) throws -> Movie {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        guard let tree = try readMoov(handle) else { return Movie(duration: nil, chapters: []) }
        let moov = tree.bodyStart..<tree.bytes.count
        var movie = Movie(duration: duration(tree, moov), chapters: [])
        if source != .chapterTrack, let chpl = tree.find(["udta", "chpl"], in: moov) {
            movie.chapters = parseChpl(Array(tree.bytes[chpl.body]))
        }
        if movie.chapters.isEmpty, source != .neroChpl {
            movie.chapters = (try? chapterTrack(tree, moov: moov, handle: handle)) ?? []
        }
        return movie
    }

    /// `mvhd`: version 0 has 32-bit times, version 1 64-bit; timescale follows the two dates.
    static func duration(_ tree: MP4AtomTree, _ moov: Range<Int>) -> Double? {
        guard let mvhd = tree.child("mvhd", of: moov) else { return nil }
        let b = mvhd.body.lowerBound
        let version = tree.u8(b)
        let timescale: UInt32
        let duration: UInt64
        if version == 1 {
            timescale = tree.u32(b + 20)
            duration = tree.u64(b + 24)
        } else {
            timescale = tree.u32(b + 12)
            duration = UInt64(tree.u32(b + 16))
        }
        guard timescale > 0, duration > 0, duration != UInt64.max, duration != UInt64(UInt32.max) else { return nil }
        return Double(duration) / Double(timescale)
    }

    /// Nero chapters: version/flags, (version 1: 4 reserved bytes), a count byte, then per
    /// chapter a 64-bit start in 100 ns units, a length byte and that many UTF-8 bytes.
    package static func parseChpl(_ body: [UInt8]) -> [Chapter] {
        guard body.count >= 5 else { return [] }
        var offset = body[0] == 1 ? 8 : 4
        guard offset < body.count else { return [] }
        let count = Int(body[offset])
        offset += 1
        var chapters: [Chapter] = []
        for _ in 0..<count {
            guard offset + 9 <= body.count else { break }
            let start = CAFDuration.be64(body, offset)
            let length = Int(body[offset + 8])
            offset += 9
            guard offset + length <= body.count else { break }
            let title = String(decoding: body[offset..<offset + length], as: UTF8.self)
            offset += length
            chapters.append(Chapter(title: title, start: Double(start) / 10_000_000))
        }
        return chapters
    }
}
