import Foundation

/// One atom (box) inside a byte buffer: its four-character type and the range of its body.
struct MP4Atom {
    let type: String
    let body: Range<Int>
}

/// A read-only view of the bytes of an `moov` atom with helpers to walk its tree.
struct MP4AtomTree {
    let bytes: [UInt8]
    /// Where the `moov` body starts in `bytes` (after an 8- or 16-byte header).
    var bodyStart = 8

    /// Container atoms whose bodies are lists of atoms.
    static let containers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl", "udta", "tref", "edts", "dinf"]

    func children(of range: Range<Int>) -> [MP4Atom] {
        var atoms: [MP4Atom] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            var size = Int(u32(offset))
            var header = 8
            if size == 1 {
                guard offset + 16 <= range.upperBound else { break }
                size = Int(clamping: u64(offset + 8))
                header = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= header, size <= range.upperBound - offset,
                  let type = Sniffer.fourCC(bytes, offset + 4) ?? latin1(offset + 4) else { break }
            atoms.append(MP4Atom(type: type, body: (offset + header)..<(offset + size)))
            offset += size
        }
        return atoms
    }

    func child(_ type: String, of range: Range<Int>) -> MP4Atom? {
        children(of: range).first { $0.type == type }
    }

    /// Follows a path of types from `range`, e.g. `["mdia", "minf", "stbl"]`.
    func find(_ path: [String], in range: Range<Int>) -> MP4Atom? {
        var current: MP4Atom?
        var scope = range
        for type in path {
            guard let next = child(type, of: scope) else { return nil }
            current = next
            scope = next.body
        }
        return current
    }

    func u8(_ i: Int) -> UInt8 { i < bytes.count ? bytes[i] : 0 }
    func u16(_ i: Int) -> UInt16 { UInt16(u8(i)) << 8 | UInt16(u8(i + 1)) }
    func u32(_ i: Int) -> UInt32 { Sniffer.be32(bytes, i) }
    func u64(_ i: Int) -> UInt64 { UInt64(u32(i)) << 32 | UInt64(u32(i + 4)) }

    private func latin1(_ i: Int) -> String? {
        guard i + 4 <= bytes.count else { return nil }
        return String(bytes[i..<i + 4].map { Character(Unicode.Scalar($0)) })
    }
}

extension MP4Chapters {
    /// Reads the top-level `moov` atom of a file, walking top-level atoms by seeking (mdat can be
    /// gigabytes and is never read whole). Caps `moov` at 64 MiB.
    static func readMoov(_ handle: FileHandle) throws -> MP4AtomTree? {
        let fileSize = try handle.seekToEnd()
        var offset: UInt64 = 0
        while offset + 8 <= fileSize {
            try handle.seek(toOffset: offset)
            guard let header = try handle.read(upToCount: 16), header.count >= 8 else { return nil }
            let h = [UInt8](header)
            var size = UInt64(Sniffer.be32(h, 0))
            var headerLength: UInt64 = 8
            if size == 1, h.count >= 16 {
                size = UInt64(Sniffer.be32(h, 8)) << 32 | UInt64(Sniffer.be32(h, 12))
                headerLength = 16
            } else if size == 0 {
                size = fileSize - offset
            }
            guard size >= headerLength, size <= fileSize - offset else { return nil }
            if Sniffer.fourCC(h, 4) == "moov" {
                guard size <= 64 << 20 else { return nil }
                try handle.seek(toOffset: offset)
                guard let data = try handle.read(upToCount: Int(size)), UInt64(data.count) == size else { return nil }
                return MP4AtomTree(bytes: [UInt8](data), bodyStart: Int(headerLength))
            }
            offset += size
        }
        return nil
    }
}
