import Foundation

/// A picture embedded in a media file: the ID3v2 `APIC` (or v2.2 `PIC`) frame of an MP3/AAC,
/// the `covr` item of an MP4/M4A/M4B. Our own small readers, as for chapters.
///
/// A cover is an image or nothing: its type is what its bytes sniff as (JPEG, PNG, GIF, WebP),
/// never the type its frame claims. Whoever made the file chose that claim, and a frame that
/// says `text/html` or `image/svg+xml` would otherwise be served as a page on the server's own
/// origin, with the paired browser's cookie (a script there could mint a token).
public struct CoverArt: Sendable, Equatable {
    /// One of `image/jpeg`, `image/png`, `image/gif`, `image/webp`: sniffed from `data`.
    package var mimeType: String
    package var data: [UInt8]

    package init(mimeType: String, data: [UInt8]) {
        self.mimeType = mimeType
        self.data = data
    }

    /// The file's cover, or nil (none, unreadable, or a format without one of our readers).
    package static func read(_ file: URL, format: MediaFormat) -> CoverArt? {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        if format.isMP4Family {
            guard let tree = try? MP4Chapters.readMoov(handle) else { return nil }
            return mp4Cover(tree)
        }
        guard let head = try? handle.read(upToCount: 10), head.count == 10, head.starts(with: Array("ID3".utf8)) else { return nil }
        let h = [UInt8](head)
        let size = syncsafe(h, 6)
        guard size > 0, size <= 16 << 20, let tag = try? handle.read(upToCount: size) else { return nil }
        return id3Cover(version: h[3], flags: h[5], tag: [UInt8](tag))
    }

    // MARK: ID3v2

    static func syncsafe(_ b: [UInt8], _ i: Int) -> Int {
        guard i + 4 <= b.count else { return 0 }
        return Int(b[i] & 0x7F) << 21 | Int(b[i + 1] & 0x7F) << 14 | Int(b[i + 2] & 0x7F) << 7 | Int(b[i + 3] & 0x7F)
    }

    /// The first picture frame whose bytes are an image, in an ID3v2.2/2.3/2.4 tag body (after
    /// the 10-byte header).
    static func id3Cover(version: UInt8, flags: UInt8, tag: [UInt8]) -> CoverArt? {
        var tag = tag
        if flags & 0x80 != 0 { tag = undoUnsynchronisation(tag) }
        var offset = 0
        if flags & 0x40 != 0, version >= 3 {   // extended header
            offset = version == 4 ? syncsafe(tag, 0) : Int(Sniffer.be32(tag, 0)) + 4
        }
        let idLength = version == 2 ? 3 : 4, headerLength = version == 2 ? 6 : 10
        while offset + headerLength <= tag.count, tag[offset] != 0 {
            let id = String(decoding: tag[offset..<offset + idLength], as: UTF8.self)
            let size: Int
            switch version {
            case 2: size = Int(tag[offset + 3]) << 16 | Int(tag[offset + 4]) << 8 | Int(tag[offset + 5])
            case 4: size = syncsafe(tag, offset + 4)
            default: size = Int(Sniffer.be32(tag, offset + 4))
            }
            let body = offset + headerLength
            guard size > 0, body + size <= tag.count else { return nil }
            if id == "APIC" || id == "PIC", let art = pictureFrame(Array(tag[body..<body + size]), v22: id == "PIC") { return art }
            offset = body + size
        }
        return nil
    }

    /// An APIC body: encoding, MIME type (v2.2: a three-letter format), picture type,
    /// description, then the image.
    static func pictureFrame(_ body: [UInt8], v22: Bool) -> CoverArt? {
        guard body.count > 4 else { return nil }
        let encoding = body[0]
        var i = 1
        if v22 {
            i = 4   // a three-letter format, not trusted (the bytes decide)
        } else {
            guard let end = body[1...].firstIndex(of: 0) else { return nil }
            i = end + 1   // the frame's MIME type, not trusted (the bytes decide)
        }
        i += 1   // picture type
        if encoding == 1 || encoding == 2 {
            while i + 1 < body.count, !(body[i] == 0 && body[i + 1] == 0) { i += 2 }
            i += 2
        } else {
            while i < body.count, body[i] != 0 { i += 1 }
            i += 1
        }
        guard i < body.count else { return nil }
        let data = Array(body[i...])
        guard let mime = sniffedImageType(data) else { return nil }
        return CoverArt(mimeType: mime, data: data)
    }

    static func undoUnsynchronisation(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            out.append(bytes[i])
            if bytes[i] == 0xFF, i + 1 < bytes.count, bytes[i + 1] == 0 { i += 1 }
            i += 1
        }
        return out
    }

    // MARK: MP4

    /// `moov/udta/meta/ilst/covr/data`: the `data` atom's body is a type (13 JPEG, 14 PNG),
    /// a locale, then the image.
    static func mp4Cover(_ tree: MP4AtomTree) -> CoverArt? {
        let moov = tree.bodyStart..<tree.bytes.count
        guard let meta = tree.find(["udta", "meta"], in: moov) else { return nil }
        // `meta` is a full box: 4 bytes of version and flags before its children (QuickTime
        // files write it without them; then the first child starts at once).
        let fullBox = meta.body.count >= 12 && tree.u32(meta.body.lowerBound) == 0
        let children = (meta.body.lowerBound + (fullBox ? 4 : 0))..<meta.body.upperBound
        guard let data = tree.find(["ilst", "covr", "data"], in: children), data.body.count > 8 else { return nil }
        let image = Array(tree.bytes[(data.body.lowerBound + 8)..<data.body.upperBound])
        guard let mime = sniffedImageType(image) else { return nil }   // the atom's type code is not trusted either
        return CoverArt(mimeType: mime, data: image)
    }

    /// The image type the bytes start with, or nil: only these four are ever served.
    static func sniffedImageType(_ data: [UInt8]) -> String? {
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if data.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if data.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if data.count > 12, data[0..<4] == [0x52, 0x49, 0x46, 0x46][...], data[8..<12] == [0x57, 0x45, 0x42, 0x50][...] { return "image/webp" }
        return nil
    }
}
