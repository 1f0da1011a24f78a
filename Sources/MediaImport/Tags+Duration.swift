import Foundation

/// Exact durations from the stream headers, where TagLib 1.13's C API only gives whole seconds:
/// FLAC STREAMINFO, WAV `fmt `/`data`, AIFF `COMM`, the last Ogg granule position (Vorbis,
/// Opus minus pre-skip) and the MP3 Xing/Info frame count (minus LAME's encoder delay and
/// padding). Nil when the header is missing; the caller keeps TagLib's value then.
enum AudioDuration {
    static func read(_ file: URL, format: MediaFormat) -> Double? {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        guard let headData = try? handle.read(upToCount: 64 * 1024) else { return nil }
        let head = [UInt8](headData)
        switch format {
        case .flac: return flac(head)
        case .wav: return wav(head)
        case .aiff: return aiff(head)
        case .mp3: return mp3(head)
        case .oggVorbis, .oggOpus:
            guard let size = try? handle.seekToEnd() else { return nil }
            let start = size > 64 * 1024 ? size - 64 * 1024 : 0
            guard (try? handle.seek(toOffset: start)) != nil, let tail = try? handle.readToEnd() else { return nil }
            return ogg(head: head, tail: [UInt8](tail), opus: format == .oggOpus)
        default: return nil
        }
    }

    static func flac(_ b: [UInt8]) -> Double? {
        // "fLaC", block header (4), STREAMINFO: rate (20 bits) at bit 80, total samples (36 bits).
        guard b.count >= 26, Sniffer.fourCC(b, 0) == "fLaC", b[4] & 0x7F == 0 else { return nil }
        let packed = CAFDuration.be64(b, 18)
        let rate = packed >> 44
        let samples = packed & ((1 << 36) - 1)
        return rate > 0 && samples > 0 ? Double(samples) / Double(rate) : nil
    }

    static func wav(_ b: [UInt8]) -> Double? {
        var offset = 12
        var byteRate: UInt32 = 0
        while offset + 8 <= b.count {
            let id = Sniffer.fourCC(b, offset)
            let size = le32(b, offset + 4)
            if id == "fmt ", offset + 16 <= b.count { byteRate = le32(b, offset + 16) }
            if id == "data" { return byteRate > 0 ? Double(size) / Double(byteRate) : nil }
            offset += 8 + Int(size) + Int(size & 1)
        }
        return nil
    }

    static func aiff(_ b: [UInt8]) -> Double? {
        var offset = 12
        while offset + 8 <= b.count {
            let size = Int(Sniffer.be32(b, offset + 4))
            if Sniffer.fourCC(b, offset) == "COMM", offset + 26 <= b.count {
                let frames = Double(Sniffer.be32(b, offset + 10))
                let rate = extended80(b, offset + 16)
                return rate > 0 ? frames / rate : nil
            }
            offset += 8 + size + (size & 1)
        }
        return nil
    }

    /// IEEE 754 80-bit extended (AIFF sample rates): sign+exponent (15 bits), 64-bit mantissa.
    static func extended80(_ b: [UInt8], _ i: Int) -> Double {
        let exponent = Int(UInt16(b[i] & 0x7F) << 8 | UInt16(b[i + 1])) - 16383
        let mantissa = CAFDuration.be64(b, i + 2)
        return Double(mantissa) * pow(2, Double(exponent - 63))
    }

    static func ogg(head: [UInt8], tail: [UInt8], opus: Bool) -> Double? {
        // The last page's granule position counts samples (48 kHz for Opus, less pre-skip).
        guard let last = lastIndex(of: Array("OggS".utf8), in: tail), last + 14 <= tail.count else { return nil }
        let granule = Double(le64(tail, last + 6))
        if opus {
            guard let idx = firstIndex(of: Array("OpusHead".utf8), in: head), idx + 12 <= head.count else { return nil }
            let preskip = Double(UInt16(head[idx + 10]) | UInt16(head[idx + 11]) << 8)
            return granule > preskip ? (granule - preskip) / 48_000 : nil
        }
        guard let idx = firstIndex(of: [1] + Array("vorbis".utf8), in: head), idx + 16 <= head.count else { return nil }
        let rate = Double(le32(head, idx + 12))
        return rate > 0 && granule > 0 ? granule / rate : nil
    }

    static func mp3(_ b: [UInt8]) -> Double? {
        var offset = 0
        if b.starts(with: Array("ID3".utf8)), b.count >= 10 {
            offset = 10 + (Int(b[6] & 0x7F) << 21 | Int(b[7] & 0x7F) << 14 | Int(b[8] & 0x7F) << 7 | Int(b[9] & 0x7F))
            if b[5] & 0x10 != 0 { offset += 10 }
        }
        while offset < b.count, b[offset] == 0 { offset += 1 }
        guard Sniffer.mpegFrameLength(b, offset) != nil, offset + 4 <= b.count else { return nil }
        let version = (b[offset + 1] >> 3) & 0x03
        let layer = (b[offset + 1] >> 1) & 0x03
        let mono = (b[offset + 3] >> 6) == 3
        let rate = [44_100, 48_000, 32_000][Int((b[offset + 2] >> 2) & 0x03)] / (version == 3 ? 1 : version == 2 ? 2 : 4)
        let samplesPerFrame = layer == 3 ? 384 : (layer == 2 || version == 3) ? 1152 : 576
        let sideInfo = version == 3 ? (mono ? 17 : 32) : (mono ? 9 : 17)
        let xing = offset + 4 + sideInfo
        guard let tag = Sniffer.fourCC(b, xing), tag == "Xing" || tag == "Info", xing + 12 <= b.count else { return nil }
        let flags = Sniffer.be32(b, xing + 4)
        guard flags & 1 != 0 else { return nil }
        var samples = Int(Sniffer.be32(b, xing + 8)) * samplesPerFrame
        // LAME extension (also written by FFmpeg): 12-bit encoder delay and padding.
        var lame = xing + 8
        for (bit, length) in [(UInt32(1), 4), (2, 4), (4, 100), (8, 4)] where flags & bit != 0 { lame += length }
        if lame + 24 <= b.count {
            let delay = Int(b[lame + 21]) << 4 | Int(b[lame + 22] >> 4)
            let padding = Int(b[lame + 22] & 0x0F) << 8 | Int(b[lame + 23])
            if delay + padding < samples { samples -= delay + padding }
        }
        return samples > 0 ? Double(samples) / Double(rate) : nil
    }

    static func le32(_ b: [UInt8], _ i: Int) -> UInt32 {
        guard i + 4 <= b.count else { return 0 }
        return UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }

    static func le64(_ b: [UInt8], _ i: Int) -> UInt64 { UInt64(le32(b, i)) | UInt64(le32(b, i + 4)) << 32 }

    static func firstIndex(of needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard !needle.isEmpty, hay.count >= needle.count else { return nil }
        return hay.withUnsafeBufferPointer { h in
            needle.withUnsafeBufferPointer { n in
                var i = 0
                while i <= h.count - n.count {
                    if h[i] == n[0], memcmp(h.baseAddress! + i, n.baseAddress!, n.count) == 0 { return i }
                    i += 1
                }
                return nil
            }
        }
    }

    static func lastIndex(of needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard !needle.isEmpty, hay.count >= needle.count else { return nil }
        return hay.withUnsafeBufferPointer { h in
            needle.withUnsafeBufferPointer { n in
                var i = h.count - n.count
                while i >= 0 {
                    if h[i] == n[0], memcmp(h.baseAddress! + i, n.baseAddress!, n.count) == 0 { return i }
                    i -= 1
                }
                return nil
            }
        }
    }
}
