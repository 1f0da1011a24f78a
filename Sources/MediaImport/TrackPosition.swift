import Foundation

/// Where a file stands in its album or book: its disc and track numbers from its tags. TagLib's
/// C API reads the track number of every format; the disc number it does not offer, so it is
/// read here from an ID3v2 `TPOS` frame or an MP4 `disk` item (the two formats books come in).
public struct TrackPosition: Sendable, Equatable {
    public var disc: Int?
    public var track: Int?

    public init(disc: Int? = nil, track: Int? = nil) {
        self.disc = disc
        self.track = track
    }

    package static func read(_ file: URL, format: MediaFormat) -> TrackPosition {
        var position = TrackPosition(track: TagLibFile.read(path: file.path, format: format)?.track)
        if format.isMP4Family {
            if let handle = try? FileHandle(forReadingFrom: file), let tree = (try? handle.readMoovClosing()) ?? nil {
                position.disc = mp4Disc(tree)
            }
        } else if let frames = ID3Frames.read(file) {
            position.disc = frames.text("TPOS").flatMap(leadingNumber)
            if position.track == nil { position.track = frames.text("TRCK").flatMap(leadingNumber) }
        }
        return position
    }

    /// "2/3" → 2, "07" → 7; nil for anything else (0 counts as none).
    public static func leadingNumber(_ text: String) -> Int? {
        let digits = text.trimmingCharacters(in: .whitespaces).prefix { $0.isASCII && $0.isNumber }
        guard let value = Int(digits), value > 0 else { return nil }
        return value
    }

    /// `moov/udta/meta/ilst/disk/data`: after the data atom's 8-byte header, two bytes of
    /// padding, then the disc number (big-endian).
    static func mp4Disc(_ tree: MP4AtomTree) -> Int? {
        let moov = tree.bodyStart..<tree.bytes.count
        guard let meta = tree.find(["udta", "meta"], in: moov) else { return nil }
        let fullBox = meta.body.count >= 12 && tree.u32(meta.body.lowerBound) == 0
        let children = (meta.body.lowerBound + (fullBox ? 4 : 0))..<meta.body.upperBound
        guard let data = tree.find(["ilst", "disk", "data"], in: children), data.body.count >= 12 else { return nil }
        let at = data.body.lowerBound + 10
        let value = Int(tree.bytes[at]) << 8 | Int(tree.bytes[at + 1])
        return value > 0 ? value : nil
    }
}

/// The text frames of an ID3v2.3/2.4 tag, read with the same frame walk as the cover's.
struct ID3Frames {
    let frames: [String: [UInt8]]

    static func read(_ file: URL) -> ID3Frames? {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 10), head.count == 10, head.starts(with: Array("ID3".utf8)) else { return nil }
        let h = [UInt8](head)
        let size = CoverArt.syncsafe(h, 6)
        guard h[3] >= 3, size > 0, size <= 16 << 20, let body = try? handle.read(upToCount: size) else { return nil }
        var tag = [UInt8](body)
        if h[5] & 0x80 != 0 { tag = CoverArt.undoUnsynchronisation(tag) }
        var offset = h[5] & 0x40 != 0 ? (h[3] == 4 ? CoverArt.syncsafe(tag, 0) : Int(Sniffer.be32(tag, 0)) + 4) : 0
        var frames: [String: [UInt8]] = [:]
        while offset + 10 <= tag.count, tag[offset] != 0 {
            let id = String(decoding: tag[offset..<offset + 4], as: UTF8.self)
            let length = h[3] == 4 ? CoverArt.syncsafe(tag, offset + 4) : Int(Sniffer.be32(tag, offset + 4))
            let start = offset + 10
            guard length > 0, start + length <= tag.count else { break }
            if id.hasPrefix("T"), frames[id] == nil { frames[id] = Array(tag[start..<start + length]) }
            offset = start + length
        }
        return ID3Frames(frames: frames)
    }

    /// A text frame's value: its encoding byte, then Latin-1, UTF-16 (with a BOM, or big-endian)
    /// or UTF-8 text.
    func text(_ id: String) -> String? {
        guard let body = frames[id], let encoding = body.first else { return nil }
        let bytes = Array(body.dropFirst())
        let text: String?
        switch encoding {
        case 1: text = String(bytes: bytes, encoding: .utf16)
        case 2: text = String(bytes: bytes, encoding: .utf16BigEndian)
        case 3: text = String(decoding: bytes, as: UTF8.self)
        default: text = String(bytes: bytes, encoding: .isoLatin1)
        }
        return text?.trimmingCharacters(in: CharacterSet(charactersIn: "\u{0}").union(.whitespaces))
    }
}

private extension FileHandle {
    func readMoovClosing() throws -> MP4AtomTree? {
        defer { try? close() }
        return try MP4Chapters.readMoov(self)
    }
}
