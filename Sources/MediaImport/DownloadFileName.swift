import Foundation

/// Picks and cleans the name a download lands under in the inbox.
package enum DownloadFileName {
    /// `Content-Disposition` (`filename*` first, then `filename`), else the URL's last path
    /// component, else a name made from the `Content-Type`. A name without an extension gets
    /// one from the `Content-Type` when it names a media type.
    package static func choose(contentDisposition: String?, url: URL, contentType: String?) -> String {
        let typeExtension = fileExtension(forContentType: contentType)
        var name = contentDisposition.flatMap(fromContentDisposition).map(sanitize) ?? ""
        if name.isEmpty || name == "download" {
            let last = url.lastPathComponent
            if last != "/" && !last.isEmpty { name = sanitize(last.removingPercentEncoding ?? last) }
        }
        if name.isEmpty { name = "download" }
        if let ext = typeExtension, (name as NSString).pathExtension.isEmpty { name += ".\(ext)" }
        return name
    }

    /// The file name a `Content-Disposition` value carries, path stripped, not yet sanitized.
    /// RFC 6266 / RFC 5987: `filename*=UTF-8''na%C3%AFve.mp3` wins over `filename="..."`.
    package static func fromContentDisposition(_ value: String) -> String? {
        var plain: String?
        var extended: String?
        for param in splitParameters(value).dropFirst() {
            guard let eq = param.firstIndex(of: "=") else { continue }
            let key = param[..<eq].trimmingCharacters(in: .whitespaces).lowercased()
            var v = param[param.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            if key == "filename*" {
                let pieces = v.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
                if pieces.count == 3 {
                    let charset = pieces[0].lowercased()
                    let encoded = String(pieces[2])
                    if charset == "utf-8" || charset.isEmpty {
                        extended = encoded.removingPercentEncoding
                    } else {
                        extended = decodeLatin1(encoded)
                    }
                }
            } else if key == "filename" {
                if v.hasPrefix("\""), v.hasSuffix("\""), v.count >= 2 {
                    v = String(v.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
                        .replacingOccurrences(of: "\\\\", with: "\\")
                }
                plain = v
            }
        }
        guard let chosen = extended ?? plain else { return nil }
        // Strip any path, Unix or Windows style.
        let last = chosen.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        return last
    }

    /// No `/` or `\`, no control characters, no leading dots or spaces, at most 200 bytes
    /// (keeping the extension). Never empty: falls back to "download".
    package static func sanitize(_ raw: String) -> String {
        var scalars = String.UnicodeScalarView()
        for s in raw.unicodeScalars {
            if s.value < 0x20 || s.value == 0x7F || (0x80..<0xA0).contains(s.value) { continue }
            scalars.append(s == "/" || s == "\\" || s == "\0" ? "_" : s)
        }
        var name = String(scalars)
        while let first = name.first, first == "." || first == " " || first == "-" { name.removeFirst() }
        while let last = name.last, last == " " || last == "." { name.removeLast() }
        if name.utf8.count > 200 {
            let ext = (name as NSString).pathExtension
            let keep = ext.isEmpty || ext.utf8.count > 16 ? "" : "." + ext
            var stem = ext.isEmpty ? name : String(name.dropLast(keep.count))
            while stem.utf8.count + keep.utf8.count > 200 { stem.removeLast() }
            name = stem + keep
        }
        return name.isEmpty ? "download" : name
    }

    /// The usual extension for a media `Content-Type`, if it is one.
    package static func fileExtension(forContentType contentType: String?) -> String? {
        guard let raw = contentType?.split(separator: ";").first else { return nil }
        switch raw.trimmingCharacters(in: .whitespaces).lowercased() {
        case "audio/mpeg", "audio/mp3", "audio/mpeg3": return "mp3"
        case "audio/mp4", "audio/x-m4a", "audio/m4a": return "m4a"
        case "audio/x-m4b", "audio/m4b": return "m4b"
        case "audio/aac", "audio/x-aac": return "aac"
        case "audio/flac", "audio/x-flac": return "flac"
        case "audio/ogg", "audio/vorbis", "application/ogg": return "ogg"
        case "audio/opus": return "opus"
        case "audio/wav", "audio/x-wav", "audio/wave", "audio/vnd.wave": return "wav"
        case "audio/aiff", "audio/x-aiff": return "aiff"
        case "audio/x-caf": return "caf"
        case "audio/x-ms-wma": return "wma"
        case "video/mp4": return "mp4"
        case "video/x-m4v": return "m4v"
        case "video/quicktime": return "mov"
        case "application/zip", "application/x-zip-compressed": return "zip"
        default: return nil
        }
    }

    /// Splits `attachment; filename="a;b.mp3"; x=y` on semicolons outside quotes.
    static func splitParameters(_ value: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for c in value {
            if escaped { current.append(c); escaped = false; continue }
            if c == "\\" && quoted { current.append(c); escaped = true; continue }
            if c == "\"" { quoted.toggle() }
            if c == ";" && !quoted { parts.append(current); current = ""; continue }
            current.append(c)
        }
        parts.append(current)
        return parts.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    private static func decodeLatin1(_ encoded: String) -> String? {
        var bytes: [UInt8] = []
        var it = Array(encoded.utf8)[...]
        while let b = it.popFirst() {
            if b == UInt8(ascii: "%"), it.count >= 2,
               let v = UInt8(String(decoding: it.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(v)
                it = it.dropFirst(2)
            } else {
                bytes.append(b)
            }
        }
        return String(bytes: bytes, encoding: .isoLatin1)
    }
}
