import Foundation

/// Downloadable files with faults on demand, for the download, agent and share tests.
///
/// A `Resource` is served as a media host serves a file: `Accept-Ranges`, `ETag` and
/// `Last-Modified`; a `Range: bytes=N-` is answered 206 from N when `If-Range` is absent or
/// matches the ETag or Last-Modified (else 200 with the whole body), 416 past the end. Every
/// response says `Connection: close`, and the connection is closed after it. Requests to a
/// resource path are counted (1-based, over the server's life): `times` and `afterRequests`
/// refer to that count.
extension TestHTTPServer {
    public struct Resource: Sendable {
        public var body: [UInt8]
        public var contentType: String
        public var etag: String?
        public var lastModified: String?
        public var contentDisposition: String?
        public var supportsRanges: Bool

        public init(body: [UInt8], contentType: String = "audio/mpeg", etag: String? = "\"v1\"",
                    lastModified: String? = "Mon, 02 Nov 2026 10:00:00 GMT", contentDisposition: String? = nil,
                    supportsRanges: Bool = true) {
            self.body = body; self.contentType = contentType; self.etag = etag; self.lastModified = lastModified
            self.contentDisposition = contentDisposition; self.supportsRanges = supportsRanges
        }
    }

    public enum Fault: Sendable {
        /// The first `times` requests get this status (with an optional Retry-After).
        case status(Int, times: Int, retryAfter: String? = nil)
        /// The first `times` requests get `bytes` of body, then a TCP reset.
        case resetAfter(bytes: Int, times: Int)
        /// The first `times` requests get `afterBytes` of body, then silence for `seconds`.
        case stall(afterBytes: Int, seconds: Double, times: Int)
        /// Every body is sent `chunk` bytes at a time, `interval` seconds apart.
        case drip(chunk: Int, interval: Double)
        /// From request `afterRequests + 1` on, the path serves `resource` instead.
        case replace(with: Resource, afterRequests: Int)
        /// Every ranged request gets 416.
        case always416
        /// Ranged requests are answered 206 whatever their If-Range says (a server that ignores it).
        case ignoreIfRange
        /// The first `times` requests get `bytes` of body, then a clean close: short of the
        /// Content-Length they announced.
        case shortBody(bytes: Int, times: Int)
        /// No Content-Length: the body ends when the connection closes.
        case noContentLength
        /// Announces this Content-Length whatever the body is.
        case claimLength(Int64)
        /// An extra response header (replacing one of the same name).
        case header(String, String)
        /// One more header line, sent even when a line of that name is sent already (two
        /// Content-Lengths, say).
        case repeatedHeader(String, String)
        /// Answers 401 unless the request carries HTTP basic auth for "user:password".
        case basicAuth(String)
    }

    /// Serves `resource` at `path` from now on (replacing whatever it served), with `faults`.
    public func route(_ path: String, _ resource: Resource, faults: [Fault] = []) throws {
        lock.lock(); defer { lock.unlock() }
        var stored = try store(resource)
        stored.faults = try faults.map { try StoredFault($0, storing: store) }
        resources[path] = stored
        routes[path] = nil
        try writeTable()
    }

    /// Writes the body beside the table (the table names the file). Called with `lock` held.
    private func store(_ resource: Resource) throws -> StoredResource {
        bodies += 1
        let body = file("body-\(bodies)")
        try Data(resource.body).write(to: body)
        return StoredResource(bodyFile: body.path, contentType: resource.contentType, etag: resource.etag,
                              lastModified: resource.lastModified, contentDisposition: resource.contentDisposition,
                              supportsRanges: resource.supportsRanges, faults: [])
    }
}

/// A `Resource` as the server script reads it.
struct StoredResource: Encodable {
    var bodyFile: String
    var contentType: String
    var etag: String?
    var lastModified: String?
    var contentDisposition: String?
    var supportsRanges: Bool
    var faults: [StoredFault]
}

/// A `Fault` as the server script reads it: `kind` names the case, the other fields its values.
struct StoredFault: Encodable {
    var kind: String
    var code: Int?
    var times: Int?
    var retryAfter: String?
    var bytes: Int?
    var seconds: Double?
    var chunk: Int?
    var interval: Double?
    var resource: StoredResource?
    var afterRequests: Int?
    var length: Int64?
    var name: String?
    var value: String?
    var credentials: String?

    init(_ fault: TestHTTPServer.Fault, storing store: (TestHTTPServer.Resource) throws -> StoredResource) throws {
        switch fault {
        case .status(let code, let times, let retryAfter):
            kind = "status"; self.code = code; self.times = times; self.retryAfter = retryAfter
        case .resetAfter(let bytes, let times):
            kind = "resetAfter"; self.bytes = bytes; self.times = times
        case .stall(let bytes, let seconds, let times):
            kind = "stall"; self.bytes = bytes; self.seconds = seconds; self.times = times
        case .drip(let chunk, let interval):
            kind = "drip"; self.chunk = chunk; self.interval = interval
        case .replace(let other, let after):
            kind = "replace"; resource = try store(other); afterRequests = after
        case .always416:
            kind = "always416"
        case .ignoreIfRange:
            kind = "ignoreIfRange"
        case .shortBody(let bytes, let times):
            kind = "shortBody"; self.bytes = bytes; self.times = times
        case .noContentLength:
            kind = "noContentLength"
        case .claimLength(let length):
            kind = "claimLength"; self.length = length
        case .header(let name, let value):
            kind = "header"; self.name = name; self.value = value
        case .repeatedHeader(let name, let value):
            kind = "repeatedHeader"; self.name = name; self.value = value
        case .basicAuth(let credentials):
            kind = "basicAuth"; self.credentials = credentials
        }
    }
}
