import Foundation
import Glibc
import MediaImport

/// `GET /media/<id>[.<ext>]`: a library file, streamed from its descriptor with single `Range`
/// requests (206), `If-Range`, `If-None-Match`, a strong `ETag` from the content's SHA-256 and
/// `Last-Modified` from the file; `GET /media/<id>/cover`: its embedded cover art.
/// Both need a paired device or token, or the feed's secret as `?key=` (what podcast apps send).
/// Their bytes came from outside (whoever made the file), so every answer is marked
/// `nosniff` and sandboxed (`HTTPResponse.markForeignBytes`), and a cover is served only as
/// the image type its bytes sniff as (`CoverArt`).
struct MediaRoute: Sendable {
    let shelf: LibraryShelf

    func media(_ request: HTTPRequest, _ context: RouteContext) throws -> HTTPResponse {
        // `/media/:file` (the id, an extension the player may want) or `/media/:id/:part`.
        let part = context.parameters["part"]
        let named = try part == nil ? context.parameter("file") : context.parameter("id")
        let id = String(named.split(separator: ".", maxSplits: 1).first ?? "")
        guard let item = try shelf.item(id: id) else { throw HTTPError(404, "Nothing in the library has the id \(id)") }
        var response: HTTPResponse
        if let part {
            guard part == "cover" || part.hasPrefix("cover.") else { throw HTTPError.notFound }
            response = try cover(item)
        } else {
            response = try Self.stream(shelf.file(of: item), item: item, request: request)
        }
        response.device = context.device
        response.markForeignBytes()
        return response
    }

    private func cover(_ item: LibraryItem) throws -> HTTPResponse {
        guard let art = shelf.cover(of: item) else { throw HTTPError(404, "This item has no cover art") }
        return HTTPResponse(status: 200, headers: [("Content-Type", art.mimeType), ("Cache-Control", "private, max-age=86400"),
                                                   ("ETag", "\"c\(item.sha256.prefix(32))\"")], body: art.data)
    }

    /// The file's answer for this request's conditional and range headers.
    static func stream(_ file: URL, item: LibraryItem, request: HTTPRequest) throws -> HTTPResponse {
        let fd = open(file.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw HTTPError(404, "The file of \(item.path) is missing from the library folder") }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw HTTPError(404, "The file of \(item.path) is missing from the library folder")
        }
        let size = Int64(info.st_size)
        let etag = "\"\(item.sha256.prefix(32))\""
        let modified = HTTPDate.string(Int(info.st_mtim.tv_sec))
        let type = MediaFormat(rawValue: item.format)?.mimeType ?? "application/octet-stream"
        var headers: [(name: String, value: String)] = [
            ("Content-Type", type), ("Accept-Ranges", "bytes"), ("ETag", etag), ("Last-Modified", modified),
            ("Cache-Control", "private, max-age=3600"), ("Content-Disposition", contentDisposition(item.path)),
        ]
        if let match = request.header("If-None-Match"), match.split(separator: ",").contains(where: {
            let tag = $0.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag == "W/" + etag
        }) {
            close(fd)
            return HTTPResponse(status: 304, headers: headers.filter { $0.name != "Content-Type" && $0.name != "Content-Disposition" })
        }
        var range = ByteRange.parse(request.header("Range"), size: size)
        if range != .whole, let condition = request.header("If-Range")?.trimmingCharacters(in: .whitespaces) {
            // A strong ETag or the exact Last-Modified date; anything else means the client's
            // copy is stale, so it gets the whole file.
            if condition != etag && condition != modified { range = .whole }
        }
        switch range {
        case .unsatisfiable:
            close(fd)
            var response = HTTPResponse.error(HTTPError(416, "The range is past the end of the file (\(size) bytes)"))
            response.headers += [("Content-Range", "bytes */\(size)"), ("Accept-Ranges", "bytes"), ("ETag", etag)]
            return response
        case .whole:
            var response = HTTPResponse(status: 200, headers: headers)
            response.file = ResponseFile(descriptor: fd, offset: 0, length: size)
            return response
        case .part(let first, let last):
            headers.append(("Content-Range", "bytes \(first)-\(last)/\(size)"))
            var response = HTTPResponse(status: 206, headers: headers)
            response.file = ResponseFile(descriptor: fd, offset: first, length: last - first + 1)
            return response
        }
    }

    /// `inline` with the file's name, ASCII-safe and as UTF-8 (RFC 6266).
    static func contentDisposition(_ path: String) -> String {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let ascii = String(name.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0 != "\"" && $0 != "\\" ? Character($0) : "_" })
        let encoded = name.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? ascii
        return "inline; filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"
    }
}
