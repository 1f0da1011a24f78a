import Foundation

/// Duration of a Core Audio Format file: `desc` gives the sample rate and frames per packet;
/// `pakt` gives the frame count for variable-size packets, else `data` bytes / bytes per packet.
enum CAFDuration {
    static func read(_ file: URL) -> Double? {
        guard let data = try? Data(contentsOf: file, options: .mappedIfSafe) else { return nil }
        let b = [UInt8](data)
        guard b.count >= 8, Sniffer.fourCC(b, 0) == "caff" else { return nil }
        var offset = 8
        var sampleRate: Double?
        var bytesPerPacket = 0
        var framesPerPacket = 0
        var frames: Int64?
        var dataBytes: Int64?
        while offset + 12 <= b.count {
            let type = Sniffer.fourCC(b, offset) ?? ""
            let size = Int64(bitPattern: be64(b, offset + 4))
            let body = offset + 12
            switch type {
            case "desc" where body + 32 <= b.count:
                sampleRate = Double(bitPattern: be64(b, body))
                bytesPerPacket = Int(Sniffer.be32(b, body + 16))
                framesPerPacket = Int(Sniffer.be32(b, body + 20))
            case "pakt" where body + 24 <= b.count:
                frames = Int64(bitPattern: be64(b, body + 8))
            case "data":
                // size -1 means "to the end of the file"; 4 bytes of edit count precede the audio.
                dataBytes = (size < 0 ? Int64(b.count - body) : size) - 4
            default: break
            }
            guard size >= 0 else { break }
            offset = body + Int(size)
        }
        guard let rate = sampleRate, rate > 0 else { return nil }
        if let frames, frames > 0 { return Double(frames) / rate }
        if let dataBytes, bytesPerPacket > 0, framesPerPacket > 0 {
            return Double(dataBytes / Int64(bytesPerPacket) * Int64(framesPerPacket)) / rate
        }
        return nil
    }

    static func be64(_ b: [UInt8], _ i: Int) -> UInt64 {
        UInt64(Sniffer.be32(b, i)) << 32 | UInt64(Sniffer.be32(b, i + 4))
    }
}
