import CSystem
import Foundation
import PiperCore
#if canImport(Glibc)
import Glibc
#endif

/// The body of a multipart `POST /share` as it arrives: text fields kept (small), each file part
/// written straight to its own file under `uploads/` in the state folder, the size cap enforced
/// while streaming (413, and no partial file left), the type checked from the part's headers.
///
/// `@unchecked Sendable`: the HTTP server calls `write`/`finish`/`abandon` from the connection's
/// worker thread, one call at a time; the responder reads it after `finish`.
final class ShareUpload: BodyStream, MultipartSink, @unchecked Sendable {
    struct File: Sendable {
        let field: String
        let name: String
        let contentType: String?
        let url: URL
        var bytes: Int64 = 0
        /// Up to here the kernel was asked to write the file back (write-behind).
        var writeBackStarted: Int64 = 0
    }

    /// How much of a file accumulates before its write-back is started, so the disk writes
    /// while the rest arrives and the fsync before the answer has little left to do.
    static let writeBehindBytes: Int64 = 16 << 20

    private var parser: MultipartParser
    private(set) var fields: [String: String] = [:]
    private(set) var files: [File] = []
    private let folder: URL
    private let limit: Int64
    private let declaredLength: Int64?
    private var total: Int64 = 0
    private var current: (name: String, text: [UInt8]?, fd: Int32)?
    static let fieldLimit = 64 * 1024

    init(boundary: String, folder: URL, limit: Int64, declaredLength: Int64?) {
        parser = MultipartParser(boundary: boundary)
        self.folder = folder
        self.limit = limit
        self.declaredLength = declaredLength
    }

    /// The stream for a request whose route streams its body (the table says), when it is
    /// multipart.
    /// `admit` refuses a request before a byte of it is stored (no credential, another site).
    static func factory(state: StateFolder, limit: Int64, admit: @escaping @Sendable (HTTPRequest) -> HTTPError?) -> BodyStreamFactory {
        { head in
            let headers = head.headers
            guard let boundary = MultipartParser.boundary(of: headers["content-type"]) else { return nil }
            let folder = state.uploads.appendingPathComponent(DeviceRegistry.randomSecret().prefix(16).description, isDirectory: true)
            let upload = ShareUpload(boundary: boundary, folder: folder, limit: limit,
                                     declaredLength: headers["content-length"].flatMap { Int64($0) })
            upload.refusal = admit(head)
            return upload
        }
    }

    /// Set when the request may not upload: the first bytes are answered with it.
    private var refusal: HTTPError?

    var refusalBeforeBody: (any Error)? {
        if let refusal { return refusal }
        if let declaredLength, declaredLength > limit + 64 * 1024 { return tooLarge }
        return nil
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        if let refusal = refusalBeforeBody { throw refusal }
        try parser.feed(bytes, into: self)
    }

    func finish() throws { try parser.finish() }

    func abandon() {
        if let fd = current?.fd, fd >= 0 { close(fd) }
        current = nil
        try? FileManager.default.removeItem(at: folder)
        files = []
    }

    /// Removes what the share left of the upload (the queue has renamed its file away).
    func cleanUp() { abandon() }

    private var tooLarge: HTTPError { HTTPError(413, "The upload is larger than the limit of \(limit) bytes; nothing was kept") }

    func partBegan(name: String, fileName: String?, contentType: String?) throws {
        guard let fileName, !fileName.isEmpty else {
            current = (name, [], -1)
            return
        }
        let type = contentType?.lowercased().split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        let safeName = Self.safeFileName(fileName)
        guard Self.acceptsType(type, name: safeName) else {
            throw HTTPError(415, "Cannot share \(safeName) (\(type.isEmpty ? "no type" : type)): only audio, video and zip files are accepted")
        }
        // Each file in a folder of its own: it keeps its own name (the library's file and an
        // untagged item's title come from it), and two parts with one name do not collide.
        let own = folder.appendingPathComponent(String(files.count), isDirectory: true)
        try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let url = own.appendingPathComponent(safeName)
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw HTTPError(500, "Cannot store the upload") }
        files.append(File(field: name, name: safeName, contentType: contentType, url: url))
        current = (name, nil, fd)
    }

    func partData(_ bytes: ArraySlice<UInt8>) throws {
        guard var part = current else { return }
        if part.fd < 0 {
            guard (part.text?.count ?? 0) + bytes.count <= Self.fieldLimit else { throw HTTPError(413, "The field '\(part.name)' is too long") }
            part.text?.append(contentsOf: bytes)
            current = part
            return
        }
        total += Int64(bytes.count)
        if total > limit { throw tooLarge }
        try bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(part.fd, base + offset, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw HTTPError(507, "The server's disk is full; nothing was kept") }
                offset += written
            }
        }
        files[files.count - 1].bytes += Int64(bytes.count)
        let file = files[files.count - 1]
        if file.bytes - file.writeBackStarted >= Self.writeBehindBytes {
            // A hint only (errors ignored): the queue's fsync is what makes the file durable.
            _ = piper_sync_file_range(part.fd, file.writeBackStarted, file.bytes - file.writeBackStarted, PIPER_SYNC_FILE_RANGE_WRITE)
            files[files.count - 1].writeBackStarted = file.bytes
        }
    }

    func partEnded() throws {
        guard let part = current else { return }
        current = nil
        if part.fd >= 0 {
            // No fsync here: the media queue takes the file by rename and fsyncs it (and the
            // folders) once, before the share is answered; write-behind has sent most of it by then.
            guard close(part.fd) == 0 else { throw HTTPError(507, "Cannot store the upload") }
        } else if let text = part.text {
            fields[part.name] = String(decoding: text, as: UTF8.self)
        }
    }

    /// audio/*, video/*, zip; a generic type when the name has a media extension.
    static func acceptsType(_ type: String, name: String) -> Bool {
        if type.hasPrefix("audio/") || type.hasPrefix("video/") || type == "application/zip" || type == "application/x-zip-compressed" {
            return true
        }
        let generic = type.isEmpty || type == "application/octet-stream"
        return generic && MediaLinks.allowedExtensions.contains((name as NSString).pathExtension.lowercased())
    }

    /// The longest file name most file systems take, in bytes (ext4's and APFS's `NAME_MAX`).
    static let nameLimit = 255

    /// The last path component, without control or invisible format characters (`VisibleText`)
    /// or a leading dot, cut to `nameLimit` bytes of UTF-8 on a character boundary with its
    /// extension kept. A name with nothing left is "upload".
    static func safeFileName(_ raw: String) -> String {
        let last = raw.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? "upload"
        var cleaned = VisibleText.of(last)
        while cleaned.hasPrefix(".") { cleaned.removeFirst() }
        return cleaned.isEmpty ? "upload" : fitted(cleaned, limit: nameLimit)
    }

    /// `name` within `limit` bytes of UTF-8: whole characters of its stem, then its extension
    /// (when the extension is short, as real ones are; a long one is cut like the rest).
    static func fitted(_ name: String, limit: Int) -> String {
        guard name.utf8.count > limit else { return name }
        var stem = Substring(name), suffix = ""
        if let dot = name.lastIndex(of: "."), dot != name.startIndex, name.utf8.distance(from: dot, to: name.endIndex) <= 16 {
            stem = name[..<dot]
            suffix = String(name[dot...])
        }
        var kept = "", used = suffix.utf8.count
        for character in stem {
            let bytes = character.utf8.count
            if used + bytes > limit { break }
            kept.append(character)
            used += bytes
        }
        kept = kept.trimmingCharacters(in: .whitespaces)
        return (kept.isEmpty ? "upload" : kept) + suffix
    }
}
