import CTagLib
import Foundation

/// What Piper keeps about one media file.
package struct MediaTags: Sendable, Codable, Equatable {
    package var title: String
    package var author: String?
    package var album: String?
    /// Seconds; nil when no reader could tell.
    package var duration: Double?
    package var chapters: [Chapter]

    package init(title: String, author: String? = nil, album: String? = nil, duration: Double? = nil, chapters: [Chapter] = []) {
        self.title = title
        self.author = author
        self.album = album
        self.duration = duration
        self.chapters = chapters
    }
}

/// Reads tags with TagLib; durations from the stream headers where we can (`AudioDuration`,
/// `CAFDuration`, MP4 `mvhd`), else TagLib's whole seconds; MP4 chapters with `MP4Chapters`. Title falls back to the file name without extension.
package enum TagReader {
    /// `fallbackTitle`/`fallbackAuthor` (the page a file was shared from) stand in for tags
    /// the file lacks; the title's last resort is the file name.
    package static func read(_ file: URL, format: MediaFormat, fallbackTitle: String? = nil, fallbackAuthor: String? = nil) -> MediaTags {
        let fallback = fallbackTitle ?? file.deletingPathExtension().lastPathComponent
        let raw = TagLibFile.read(path: file.path, format: format)
        var tags = MediaTags(title: raw?.title ?? fallback, author: raw?.artist ?? fallbackAuthor, album: raw?.album,
                             duration: raw?.seconds.flatMap { $0 > 0 ? Double($0) : nil })
        if format.isMP4Family, let movie = try? MP4Chapters.readMovie(file) {
            if let duration = movie.duration { tags.duration = duration }
            tags.chapters = movie.chapters
        }
        if format == .caf, let duration = CAFDuration.read(file) { tags.duration = duration }
        if let duration = AudioDuration.read(file, format: format) { tags.duration = duration }
        return tags
    }
}

/// One open TagLib file. The class owns the `TagLib_File` handle: `init` opens it, `deinit` frees it.
/// TagLib's C API keeps global string state (`taglib_tag_free_strings` frees every string it
/// handed out), so every use goes through `TagLibFile.lock`.
final class TagLibFile {
    struct Raw { var title: String?; var artist: String?; var album: String?; var seconds: Int?; var track: Int? }

    /// Serialises all TagLib C calls in the process (its string bookkeeping is global).
    static let lock = NSLock()

    private let handle: OpaquePointer

    private init?(path: String, format: MediaFormat) {
        // Prefer the sniffed type: the name's extension may lie. TagLib 1.13's C API only names
        // some types; for the rest it goes by extension.
        var opened: UnsafeMutablePointer<TagLib_File>?
        if let type = Self.type(for: format) { opened = taglib_file_new_type(path, type) }
        if opened == nil { opened = taglib_file_new(path) }
        guard let opened else { return nil }
        guard taglib_file_is_valid(opened) != 0 else { taglib_file_free(opened); return nil }
        handle = OpaquePointer(opened)
    }

    deinit { taglib_file_free(UnsafeMutablePointer<TagLib_File>(handle)) }

    static func read(path: String, format: MediaFormat) -> Raw? {
        // Without libtag_c (opened on first use) a file has no tags to read, as an untagged one.
        guard piper_taglib_load() == nil else { return nil }
        lock.lock()
        defer { lock.unlock() }
        taglib_set_strings_unicode(1)
        guard let file = TagLibFile(path: path, format: format) else { return nil }
        defer { taglib_tag_free_strings() }
        let pointer = UnsafeMutablePointer<TagLib_File>(file.handle)
        var raw = Raw()
        if let tag = taglib_file_tag(pointer) {
            raw.title = clean(taglib_tag_title(tag))
            raw.artist = clean(taglib_tag_artist(tag))
            raw.album = clean(taglib_tag_album(tag))
            let track = Int(taglib_tag_track(tag))
            raw.track = track > 0 ? track : nil
        }
        if let properties = taglib_file_audioproperties(pointer) {
            raw.seconds = Int(taglib_audioproperties_length(properties))
        }
        return raw
    }

    private static func clean(_ c: UnsafeMutablePointer<CChar>?) -> String? {
        guard let c else { return nil }
        let s = String(cString: c).trimmingCharacters(in: .whitespacesAndNewlines)
        return s.isEmpty ? nil : s
    }

    private static func type(for format: MediaFormat) -> TagLib_File_Type? {
        switch format {
        case .mp3: return TagLib_File_MPEG
        case .flac: return TagLib_File_FLAC
        case .oggVorbis: return TagLib_File_OggVorbis
        case .oggFLAC: return TagLib_File_OggFlac
        case .m4a, .m4b, .mp4, .mov: return TagLib_File_MP4
        case .asf: return TagLib_File_ASF
        case .wav, .aiff, .oggOpus, .caf, .aac, .zip: return nil
        }
    }
}
