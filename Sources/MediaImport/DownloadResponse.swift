import Foundation

/// The headers of one HTTP response (the last one, after redirects), names lower-cased.
struct ResponseHeaders: Sendable, Equatable {
    var status = 0
    var fields: [String: String] = [:]
    /// Framing fields (`Content-Length`, `Content-Range`) the response sent more than once with
    /// different values, as "name: first | other". Which one libcurl framed the body by is
    /// unknowable, so such a response is refused (`ResponseDecision.evaluate`), as browsers do.
    var conflicts: [String] = []

    subscript(_ name: String) -> String? { fields[name.lowercased()] }

    /// Feeds one raw header line as libcurl hands it over. A status line starts a new response
    /// (a redirect or a `100 Continue` came before), so earlier fields are dropped.
    mutating func consume(line raw: String) {
        let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            fields = [:]
            conflicts = []
            let parts = line.split(separator: " ", maxSplits: 2)
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        if Self.framing.contains(name) {
            // A list value ("10, 20") is as ambiguous as two lines.
            let values = Set(value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            if name == "content-length", values.count > 1 { conflicts.append("\(name): \(value)") }
            if let earlier = fields[name], earlier != value { conflicts.append("\(name): \(earlier) | \(value)") }
        }
        fields[name] = value
    }

    /// The fields that frame the body: a second, different value makes its length a guess.
    static let framing: Set<String> = ["content-length", "content-range"]

    var contentType: String? { self["content-type"] }
    var contentLength: Int64? { self["content-length"].flatMap { Int64($0) } }
    var etag: String? { self["etag"] }
    var lastModified: String? { self["last-modified"] }
}

/// `Content-Range: bytes START-END/TOTAL` or `bytes */TOTAL`.
struct ContentRange: Equatable, Sendable {
    var start: Int64?
    var end: Int64?
    var total: Int64?

    init?(_ text: String?) {
        guard let text else { return nil }
        let t = text.trimmingCharacters(in: .whitespaces)
        guard t.lowercased().hasPrefix("bytes") else { return nil }
        let spec = t.dropFirst(5).trimmingCharacters(in: .whitespaces)
        let halves = spec.split(separator: "/", maxSplits: 1).map(String.init)
        guard halves.count == 2 else { return nil }
        total = halves[1] == "*" ? nil : Int64(halves[1])
        if halves[0] == "*" { return }
        let bounds = halves[0].split(separator: "-").map { Int64($0) }
        guard bounds.count == 2, let s = bounds[0], let e = bounds[1], s <= e else { return nil }
        start = s
        end = e
    }
}

/// What one response means for the transfer in progress. A pure value: the downloader asks
/// once per response and carries the answer out.
enum ResponseAction: Equatable, Sendable {
    /// Write the body from byte 0 (a fresh download, or the resource changed: truncate first).
    case writeFromStart(total: Int64?)
    /// A good 206: append the body at the requested offset.
    case append(total: Int64?)
    /// The server answered 416; `total` is the size it reports, if any.
    case rangeNotSatisfiable(total: Int64?)
    /// The ranged answer doesn't line up with what we have: start over from 0.
    case restart(reason: String)
    case retry(reason: String, retryAfter: String?)
    case fail(reason: String)
}

enum ResponseDecision {
    /// Decides what to do with the response to a request that asked for bytes from `offset`
    /// (0 = the whole file), knowing from earlier attempts the total size and the validators
    /// (`knownETag`, `knownLastModified`) the partial file's bytes came with.
    /// `ifRange` is the validator the request sent in `If-Range` (nil when it sent none: a
    /// resume then proves its version by the overlap, `DownloadTransfer`).
    static func evaluate(_ headers: ResponseHeaders, requestedOffset offset: Int64, knownTotal: Int64?,
                         knownETag: String? = nil, knownLastModified: String? = nil, ifRange: String? = nil,
                         maxBytes: Int64 = .max) -> ResponseAction {
        let status = headers.status
        if (200...299).contains(status), let conflict = headers.conflicts.first {
            return .fail(reason: "The server sent conflicting framing headers (\(conflict)); the file's length cannot be trusted")
        }
        switch status {
        case 200, 203:
            // A web page's Content-Type is judged with the first bytes (`DownloadTransfer`):
            // it never overrides a successful sniff of a real media file.
            if let reason = rejectsEncoding(headers["content-encoding"]) { return .fail(reason: reason) }
            if headers.contentLength == 0 { return .fail(reason: "The server sent an empty file (0 bytes)") }
            if let length = headers.contentLength, length > maxBytes { return .fail(reason: tooLarge(length, limit: maxBytes)) }
            return .writeFromStart(total: headers.contentLength)
        case 206:
            if let reason = rejectsEncoding(headers["content-encoding"]) { return .fail(reason: reason) }
            guard let range = ContentRange(headers["content-range"]), let start = range.start else {
                return .restart(reason: "the server sent a partial answer without a usable Content-Range")
            }
            guard start == offset else {
                return .restart(reason: "the server resumed at byte \(start), not \(offset)")
            }
            if let known = knownTotal, let total = range.total, known != total {
                return .restart(reason: "the file's size changed from \(known) to \(total) bytes")
            }
            // A server that ignores If-Range resumes a file that has changed: its bytes would be
            // spliced onto the old version's. Any validator that differs means another version.
            if let change = validatorChange(headers, knownETag: knownETag, knownLastModified: knownLastModified) {
                return .restart(reason: "the file changed on the server (\(change)) but the server resumed it anyway")
            }
            // The validator sent in If-Range must come back: a 206 that drops it proves nothing
            // about which version its bytes are from (RFC 9110 has a 206 repeat the ETag and
            // Last-Modified a 200 would carry).
            if let sent = ifRange, !proves(headers, validator: sent) {
                return .restart(reason: "the server resumed without the validator \(sent) the file was first sent with, "
                                + "so the new bytes may belong to another version")
            }
            if let total = range.total, total > maxBytes { return .fail(reason: tooLarge(total, limit: maxBytes)) }
            return .append(total: range.total)
        case 416:
            return .rangeNotSatisfiable(total: ContentRange(headers["content-range"])?.total)
        case 408, 429, 500...599:
            return .retry(reason: httpReason(status), retryAfter: headers["retry-after"])
        case 401, 403, 404, 410:
            return .fail(reason: httpReason(status))
        case 400...499:
            return .fail(reason: httpReason(status))
        default:
            return .fail(reason: "Unexpected HTTP status \(status)")
        }
    }

    /// How the response's validators differ from the ones the partial file was fetched with,
    /// or nil when every validator both sides have agrees. ETags compare weakly (`W/` ignored).
    static func validatorChange(_ headers: ResponseHeaders, knownETag: String?, knownLastModified: String?) -> String? {
        if let known = knownETag, let sent = headers.etag, opaqueTag(known) != opaqueTag(sent) {
            return "ETag \(known) became \(sent)"
        }
        if let known = knownLastModified, let sent = headers.lastModified, known != sent {
            return "Last-Modified \(known) became \(sent)"
        }
        return nil
    }

    /// True when the 206 carries the very validator the request's If-Range named: the same
    /// strong ETag (byte for byte), or the same Last-Modified date.
    static func proves(_ headers: ResponseHeaders, validator: String) -> Bool {
        headers.etag == validator || headers.lastModified == validator
    }

    private static func opaqueTag(_ tag: String) -> Substring {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)
    }

    /// A body encoded although Piper asked for `identity`: stored as it is, it would be neither
    /// the file nor resumable, so it is refused with the reason.
    static func rejectsEncoding(_ contentEncoding: String?) -> String? {
        guard let raw = contentEncoding?.trimmingCharacters(in: .whitespaces).lowercased(), !raw.isEmpty, raw != "identity" else {
            return nil
        }
        return "The server sent the file compressed (Content-Encoding: \(raw)) although Piper asked for it as it is; "
            + "such a download can be neither stored nor resumed safely"
    }

    static func tooLarge(_ size: Int64, limit: Int64) -> String {
        "The file is \(ByteText.format(size)), more than the \(ByteText.format(limit)) limit (PIPER_DOWNLOAD_MAX_BYTES)"
    }

    /// Why the first bytes of a body are a web page rather than the media file expected: a
    /// preview, login or error page. The bytes decide: a body that sniffs as media is media
    /// whatever its Content-Type says; one labelled as a page must sniff as media, any other
    /// must not look like HTML. Nil when the body may be stored.
    static func refusesAsPage(_ first: UnsafeRawBufferPointer, contentType: String?) -> String? {
        let type = contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if case .media = Sniffer.sniff(Array(first.prefix(Sniffer.headLength))) { return nil }
        if let type, type == "text/html" || type == "application/xhtml+xml" {
            return "The server sent a web page (\(type)) instead of a media file; the link may point to a preview or sign-in page"
        }
        guard looksLikeHTML(first) else { return nil }
        return "The server sent a web page instead of a media file; the link may point to a preview or sign-in page"
    }

    /// True when the first bytes of a body look like an HTML document, whatever the headers say.
    static func looksLikeHTML(_ prefix: UnsafeRawBufferPointer) -> Bool {
        var bytes = prefix.prefix(512).drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let head = String(decoding: bytes.prefix(15), as: UTF8.self).lowercased()
        return head.hasPrefix("<!doctype html") || head.hasPrefix("<html")
    }

    static func httpReason(_ status: Int) -> String {
        let text = statusText(status)
        return text.isEmpty ? "HTTP \(status)" : "HTTP \(status) \(text)"
    }

    static func statusText(_ status: Int) -> String {
        switch status {
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 408: return "Request Timeout"
        case 410: return "Gone"
        case 416: return "Range Not Satisfiable"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return ""
        }
    }
}
