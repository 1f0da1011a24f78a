/// The real format of a file, decided from its first bytes, never from its name.
package enum MediaFormat: String, Sendable, Codable, CaseIterable {
    case mp3, m4a, m4b, mp4, mov, flac, oggVorbis = "ogg-vorbis", oggOpus = "ogg-opus", oggFLAC = "ogg-flac"
    case wav, aiff, caf, asf, aac, zip

    /// Extensions a file of this format may carry; the first is the one Piper gives a file
    /// whose name has none of them.
    package var extensions: [String] {
        switch self {
        case .mp3: return ["mp3"]
        case .m4a: return ["m4a", "m4b", "mp4", "aac"]
        case .m4b: return ["m4b", "m4a", "mp4"]
        case .mp4: return ["mp4", "m4v", "m4a", "m4b", "mov"]
        case .mov: return ["mov", "mp4", "qt"]
        case .flac: return ["flac"]
        case .oggVorbis: return ["ogg", "oga"]
        case .oggOpus: return ["opus", "ogg"]
        case .oggFLAC: return ["oga", "ogg"]
        case .wav: return ["wav", "wave"]
        case .aiff: return ["aiff", "aif", "aifc"]
        case .caf: return ["caf"]
        case .asf: return ["wma", "wmv", "asf"]
        case .aac: return ["aac"]
        case .zip: return ["zip"]
        }
    }

    package var isArchive: Bool { self == .zip }
    /// MP4/QuickTime family: duration and chapters come from the atom tree.
    package var isMP4Family: Bool { self == .m4a || self == .m4b || self == .mp4 || self == .mov }
}

/// What sniffing a file decided: a media format, or a rejection with the sentence a user sees.
package enum SniffResult: Sendable, Equatable {
    case media(MediaFormat)
    case rejected(String)
}

/// Decides a file's real format from its leading bytes (pure; no I/O).
/// Give it at least the first 4 KiB of the file (`Sniffer.headLength`).
package enum Sniffer {
    package static let headLength = 4096

    package static func sniff(_ head: [UInt8]) -> SniffResult {
        guard !head.isEmpty else { return .rejected("empty file (0 bytes)") }
        if let format = container(head) ?? mpegAudio(head) { return format }
        return .rejected(describeNonMedia(head))
    }

    // MARK: - Containers with a magic number

    private static func container(_ b: [UInt8]) -> SniffResult? {
        if b.starts(with: ascii("ID3")), b.count >= 10 { return afterID3(b) }
        if b.starts(with: ascii("fLaC")) { return .media(.flac) }
        if b.starts(with: ascii("OggS")) { return ogg(b) }
        if b.starts(with: ascii("RIFF")), fourCC(b, 8) == "WAVE" { return .media(.wav) }
        if b.starts(with: ascii("FORM")), let kind = fourCC(b, 8), kind == "AIFF" || kind == "AIFC" { return .media(.aiff) }
        if b.starts(with: ascii("caff")) { return .media(.caf) }
        if b.starts(with: asfGUID) { return .media(.asf) }
        if b.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .media(.zip) }
        if b.starts(with: [0x50, 0x4B, 0x05, 0x06]) { return .rejected("empty zip archive (no files inside)") }
        if fourCC(b, 4) == "ftyp" { return mp4(b) }
        return nil
    }

    /// An ID3v2 tag usually precedes MPEG audio, but may also precede ADTS AAC or FLAC:
    /// look past it when the head reaches that far.
    private static func afterID3(_ b: [UInt8]) -> SniffResult {
        let size = (Int(b[6] & 0x7F) << 21) | (Int(b[7] & 0x7F) << 14) | (Int(b[8] & 0x7F) << 7) | Int(b[9] & 0x7F)
        let footer = b[5] & 0x10 != 0 ? 10 : 0
        let next = 10 + size + footer
        guard next + 8 <= b.count else { return .media(.mp3) }
        let rest = Array(b[next...])
        if rest.starts(with: ascii("fLaC")) { return .media(.flac) }
        if adtsFrameLength(rest, 0) != nil { return .media(.aac) }
        return .media(.mp3)
    }

    /// The ASF header object GUID (75B22630-668E-11CF-A6D9-00AA0062CE6C), as stored.
    static let asfGUID: [UInt8] = [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11,
                                   0xA6, 0xD9, 0x00, 0xAA, 0x00, 0x62, 0xCE, 0x6C]

    private static func mp4(_ b: [UInt8]) -> SniffResult {
        guard let major = fourCC(b, 8) else { return .rejected("truncated MP4 header") }
        var brands = [major]
        let boxSize = Int(be32(b, 0))
        var offset = 16
        while offset + 4 <= min(boxSize, b.count) {
            if let brand = fourCC(b, offset) { brands.append(brand) }
            offset += 4
        }
        // The most specific brand wins, wherever it sits in the list.
        if brands.contains("M4B ") { return .media(.m4b) }
        if brands.contains("M4A ") || brands.contains("M4P ") { return .media(.m4a) }
        if major == "qt  " { return .media(.mov) }
        let generic: Set<String> = ["M4V ", "M4VH", "M4VP", "mp41", "mp42", "isom", "iso2", "iso4", "iso5", "iso6",
                                    "avc1", "dash", "f4v ", "f4a ", "f4b ", "3gp4", "3gp5", "3gp6", "MSNV", "qt  "]
        if brands.contains(where: generic.contains) { return .media(.mp4) }
        return .rejected("MP4 container with brand '\(major.trimmingCharacters())' is not audio or video")
    }

    private static func ogg(_ b: [UInt8]) -> SniffResult {
        // The first page carries the codec's identification header right after the segment table.
        guard b.count > 27 else { return .rejected("truncated Ogg stream") }
        let segments = Int(b[26])
        let start = 27 + segments
        guard start < b.count else { return .rejected("truncated Ogg stream") }
        let packet = Array(b[start..<min(b.count, start + 16)])
        if packet.starts(with: [0x01] + ascii("vorbis")) { return .media(.oggVorbis) }
        if packet.starts(with: ascii("OpusHead")) { return .media(.oggOpus) }
        if packet.starts(with: [0x7F] + ascii("FLAC")) { return .media(.oggFLAC) }
        return .rejected("Ogg stream that is neither Vorbis, Opus nor FLAC")
    }

    // MARK: - Frame-synced streams (MPEG audio, ADTS AAC)

    /// MPEG audio or ADTS without a tag: a frame header whose computed length lands on a second
    /// frame header (one sync alone is too weak; random data has `FF Ex` often enough).
    private static func mpegAudio(_ b: [UInt8]) -> SniffResult? {
        var offset = 0
        while offset + 1 < b.count, b[offset] == 0 { offset += 1 }   // leading padding
        if let length = adtsFrameLength(b, offset), confirms(b, offset + length, adts: true) { return .media(.aac) }
        if let length = mpegFrameLength(b, offset), confirms(b, offset + length, adts: false) { return .media(.mp3) }
        return nil
    }

    private static func confirms(_ b: [UInt8], _ next: Int, adts: Bool) -> Bool {
        if next + 4 > b.count { return next <= b.count && b.count < headLength }  // whole file was one frame
        return adts ? adtsFrameLength(b, next) != nil : mpegFrameLength(b, next) != nil
    }

    static func adtsFrameLength(_ b: [UInt8], _ i: Int) -> Int? {
        guard i + 7 <= b.count, b[i] == 0xFF, b[i + 1] & 0xF6 == 0xF0 else { return nil }
        guard (b[i + 2] >> 2) & 0x0F < 13 else { return nil }           // sampling frequency index
        let length = (Int(b[i + 3] & 0x03) << 11) | (Int(b[i + 4]) << 3) | Int(b[i + 5] >> 5)
        return length >= 7 ? length : nil
    }

    static func mpegFrameLength(_ b: [UInt8], _ i: Int) -> Int? {
        guard i + 4 <= b.count, b[i] == 0xFF, b[i + 1] & 0xE0 == 0xE0 else { return nil }
        let version = (b[i + 1] >> 3) & 0x03      // 0: 2.5, 1: reserved, 2: v2, 3: v1
        let layer = (b[i + 1] >> 1) & 0x03        // 1: III, 2: II, 3: I, 0: reserved
        let bitrateIndex = Int(b[i + 2] >> 4)
        let rateIndex = Int((b[i + 2] >> 2) & 0x03)
        let padding = Int((b[i + 2] >> 1) & 0x01)
        guard version != 1, layer != 0, bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
        let v1 = version == 3
        let kbps: [Int]
        switch (v1, layer) {
        case (true, 3): kbps = [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448]
        case (true, 2): kbps = [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384]
        case (true, _): kbps = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
        case (false, 3): kbps = [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256]
        default: kbps = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
        }
        let baseRates = [44_100, 48_000, 32_000]
        let sampleRate = baseRates[rateIndex] / (version == 3 ? 1 : version == 2 ? 2 : 4)
        let bitrate = kbps[bitrateIndex] * 1000
        if layer == 3 { return (12 * bitrate / sampleRate + padding) * 4 }
        let samples = (layer == 1 && !v1) ? 576 : 1152
        return samples / 8 * bitrate / sampleRate + padding
    }

    // MARK: - Explaining what a non-media file is

    static func describeNonMedia(_ b: [UInt8]) -> String {
        if looksLikeHTML(b) { return "HTML page (probably an error or login page), not media" }
        if b.starts(with: ascii("%PDF")) { return "PDF document, not media" }
        if b.starts(with: [0x89] + ascii("PNG")) || b.starts(with: [0xFF, 0xD8, 0xFF]) { return "image, not media" }
        if looksLikeText(b) { return "text file, not media" }
        return "unrecognised data: not a supported audio, video or zip format"
    }

    static func looksLikeHTML(_ b: [UInt8]) -> Bool {
        var body = b.prefix(1024)
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        let text = String(decoding: body, as: UTF8.self).lowercased()
        let trimmed = text.drop { $0.isWhitespace }
        let openers = ["<!doctype html", "<html", "<head", "<body", "<!--", "<?xml", "<script", "<title"]
        if openers.contains(where: { trimmed.hasPrefix($0) }) { return true }
        return text.contains("<html") || text.contains("</body>")
    }

    /// Valid UTF-8 with no control bytes other than whitespace. The sample may end inside a
    /// multi-byte character, so up to three trailing bytes may be dropped.
    static func looksLikeText(_ b: [UInt8]) -> Bool {
        let sample = Array(b.prefix(headLength))
        let valid = (0...min(3, sample.count - 1)).contains { cut in
            String(validating: sample.dropLast(cut), as: UTF8.self) != nil
        }
        guard valid else { return false }
        return !sample.contains { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != 0x0C }
    }

    // MARK: - Byte helpers

    static func ascii(_ s: String) -> [UInt8] { Array(s.utf8) }

    static func fourCC(_ b: [UInt8], _ i: Int) -> String? {
        guard i >= 0, i + 4 <= b.count else { return nil }
        let slice = b[i..<i + 4]
        guard slice.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return String(decoding: slice, as: UTF8.self)
    }

    static func be32(_ b: [UInt8], _ i: Int) -> UInt32 {
        guard i + 4 <= b.count else { return 0 }
        return UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }
}

private extension String {
    func trimmingCharacters() -> String { String(reversed().drop { $0 == " " }.reversed()) }
}
