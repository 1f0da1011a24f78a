/// The Content-Type a library file is served with, from its sniffed format (never from its name).
extension MediaFormat {
    package var mimeType: String {
        switch self {
        case .mp3: return "audio/mpeg"
        case .m4a, .m4b: return "audio/mp4"
        case .mp4: return "video/mp4"
        case .mov: return "video/quicktime"
        case .flac: return "audio/flac"
        case .oggVorbis, .oggFLAC: return "audio/ogg"
        case .oggOpus: return "audio/ogg; codecs=opus"
        case .wav: return "audio/wav"
        case .aiff: return "audio/aiff"
        case .caf: return "audio/x-caf"
        case .asf: return "video/x-ms-asf"
        case .aac: return "audio/aac"
        case .zip: return "application/zip"
        }
    }

    /// Played in a `<video>` element rather than an `<audio>` one.
    package var isVideo: Bool { self == .mp4 || self == .mov || self == .asf }
}
