import Foundation

extension MP4Chapters {
    /// The QuickTime chapter track: the track named by the first `tref/chap` reference holds one
    /// text sample per chapter (16-bit length + text); sample times come from `stts`.
    static func chapterTrack(_ tree: MP4AtomTree, moov: Range<Int>, handle: FileHandle) throws -> [Chapter] {
        let tracks = tree.children(of: moov).filter { $0.type == "trak" }
        var chapterIDs: [UInt32] = []
        for track in tracks {
            guard let chap = tree.find(["tref", "chap"], in: track.body) else { continue }
            for i in stride(from: chap.body.lowerBound, to: chap.body.upperBound - 3, by: 4) { chapterIDs.append(tree.u32(i)) }
        }
        guard let target = tracks.first(where: { chapterIDs.contains(trackID(tree, $0) ?? 0) }),
              let mdhd = tree.find(["mdia", "mdhd"], in: target.body),
              let stbl = tree.find(["mdia", "minf", "stbl"], in: target.body) else { return [] }
        let timescale = tree.u8(mdhd.body.lowerBound) == 1 ? tree.u32(mdhd.body.lowerBound + 20) : tree.u32(mdhd.body.lowerBound + 12)
        guard timescale > 0 else { return [] }
        let starts = sampleStarts(tree, stbl.body)
        let locations = sampleLocations(tree, stbl.body)
        var chapters: [Chapter] = []
        for (index, location) in locations.prefix(1000).enumerated() where index < starts.count {
            try handle.seek(toOffset: location.offset)
            guard let data = try handle.read(upToCount: min(location.size, 4096)) else { continue }
            chapters.append(Chapter(title: textSample([UInt8](data)), start: Double(starts[index]) / Double(timescale)))
        }
        return chapters
    }

    static func trackID(_ tree: MP4AtomTree, _ track: MP4Atom) -> UInt32? {
        guard let tkhd = tree.child("tkhd", of: track.body) else { return nil }
        let b = tkhd.body.lowerBound
        return tree.u8(b) == 1 ? tree.u32(b + 20) : tree.u32(b + 12)
    }

    /// Decode times of each sample from `stts` (count, delta) runs.
    static func sampleStarts(_ tree: MP4AtomTree, _ stbl: Range<Int>) -> [UInt64] {
        guard let stts = tree.child("stts", of: stbl) else { return [] }
        let b = stts.body.lowerBound
        let entries = min(Int(tree.u32(b + 4)), (stts.body.count - 8) / 8)
        var starts: [UInt64] = []
        var time: UInt64 = 0
        for e in 0..<max(0, entries) {
            let count = min(Int(tree.u32(b + 8 + e * 8)), 1000)
            let delta = UInt64(tree.u32(b + 12 + e * 8))
            for _ in 0..<count where starts.count < 1000 {
                starts.append(time)
                time += delta
            }
        }
        return starts
    }

    /// File offset and size of each sample, from `stsz`, `stsc` and `stco`/`co64`.
    static func sampleLocations(_ tree: MP4AtomTree, _ stbl: Range<Int>) -> [(offset: UInt64, size: Int)] {
        guard let stsz = tree.child("stsz", of: stbl), let stsc = tree.child("stsc", of: stbl) else { return [] }
        let z = stsz.body.lowerBound
        let fixedSize = Int(tree.u32(z + 4))
        let sampleCount = min(Int(tree.u32(z + 8)), 1000)
        let sizes = (0..<sampleCount).map { fixedSize != 0 ? fixedSize : Int(tree.u32(z + 12 + $0 * 4)) }

        var chunkOffsets: [UInt64] = []
        if let stco = tree.child("stco", of: stbl) {
            let n = min(Int(tree.u32(stco.body.lowerBound + 4)), (stco.body.count - 8) / 4)
            chunkOffsets = (0..<max(0, n)).map { UInt64(tree.u32(stco.body.lowerBound + 8 + $0 * 4)) }
        } else if let co64 = tree.child("co64", of: stbl) {
            let n = min(Int(tree.u32(co64.body.lowerBound + 4)), (co64.body.count - 8) / 8)
            chunkOffsets = (0..<max(0, n)).map { tree.u64(co64.body.lowerBound + 8 + $0 * 8) }
        }
        let c = stsc.body.lowerBound
        let runs = min(Int(tree.u32(c + 4)), (stsc.body.count - 8) / 12)
        let firstChunks = (0..<max(0, runs)).map { Int(tree.u32(c + 8 + $0 * 12)) }
        let perChunk = (0..<max(0, runs)).map { Int(tree.u32(c + 12 + $0 * 12)) }

        var locations: [(offset: UInt64, size: Int)] = []
        var sample = 0
        for (chunkIndex, chunkOffset) in chunkOffsets.enumerated() where sample < sizes.count {
            let chunkNumber = chunkIndex + 1
            guard let run = firstChunks.lastIndex(where: { $0 <= chunkNumber }) else { break }
            var offset = chunkOffset
            for _ in 0..<min(perChunk[run], sizes.count - sample) {
                locations.append((offset, sizes[sample]))
                offset &+= UInt64(sizes[sample])
                sample += 1
            }
        }
        return locations
    }

    /// A QuickTime text sample: 16-bit big-endian length, then UTF-8 (or UTF-16 with a BOM).
    static func textSample(_ b: [UInt8]) -> String {
        guard b.count >= 2 else { return "" }
        let length = min(Int(b[0]) << 8 | Int(b[1]), b.count - 2)
        let text = Array(b[2..<2 + length])
        if text.starts(with: [0xFE, 0xFF]) || text.starts(with: [0xFF, 0xFE]) {
            return String(data: Data(text), encoding: .utf16) ?? ""
        }
        return String(decoding: text, as: UTF8.self)
    }
}
