import Foundation

/// Duration of a Core Audio Format file: `desc` gives the sample rate and frames per packet;
/// `pakt` gives the frame count for variable-size packets, else `data` bytes / bytes per packet.
/// Walks chunk headers by seeking; never reads the audio.
enum CAFDuration {
    static func read(_ file: URL) -> Double? {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        guard let fileSize = try? handle.seekToEnd(), fileSize >= 8,
              (try? handle.seek(toOffset: 0)) != nil,
              let magic = try? handle.read(upToCount: 8), Sniffer.fourCC([UInt8](magic), 0) == "caff" else { return nil }
        var offset: UInt64 = 8
        var sampleRate: Double?
        var bytesPerPacket: UInt64 = 0
        var framesPerPacket: UInt64 = 0
        var frames: UInt64?
        var dataBytes: UInt64?
        for _ in 0..<64 where offset + 12 <= fileSize {
            guard (try? handle.seek(toOffset: offset)) != nil, let headerData = try? handle.read(upToCount: 44) else { break }
            let h = [UInt8](headerData)
            guard h.count >= 12 else { break }
            let size = Int64(bitPattern: be64(h, 4))
            let body = offset + 12
            switch Sniffer.fourCC(h, 0) {
            case "desc" where h.count >= 44:
                sampleRate = Double(bitPattern: be64(h, 12))
                bytesPerPacket = UInt64(Sniffer.be32(h, 28))
                framesPerPacket = UInt64(Sniffer.be32(h, 32))
            case "pakt" where h.count >= 36:
                frames = be64(h, 20)
            case "data":
                // Size -1 means "to the end of the file"; 4 bytes of edit count precede the audio.
                let length = size < 0 ? fileSize - body : UInt64(size)
                dataBytes = length >= 4 ? length - 4 : 0
            default: break
            }
            guard size >= 0, UInt64(size) <= fileSize - body else { break }
            offset = body + UInt64(size)
        }
        guard let rate = sampleRate, rate > 0, rate.isFinite else { return nil }
        if let frames, frames > 0 { return Double(frames) / rate }
        if let dataBytes, bytesPerPacket > 0, framesPerPacket > 0 {
            return Double(dataBytes / bytesPerPacket * framesPerPacket) / rate
        }
        return nil
    }

    static func be64(_ b: [UInt8], _ i: Int) -> UInt64 {
        UInt64(Sniffer.be32(b, i)) << 32 | UInt64(Sniffer.be32(b, i + 4))
    }
}
