import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one real HTTP server of the test targets, on 127.0.0.1 and port 0 (or a port asked for):
/// python3's `http.server`, started as a subprocess and driven by a routes table.
///
/// A table entry is either a `Route` (a canned answer: status, headers, body; it can stall,
/// gzip, require a cookie, redirect through a `Location` header) or a `Resource` (a file served
/// the way a media host serves it: Range, If-Range, ETag and Last-Modified honoured, one response
/// per connection, with `Fault`s injected on demand; see `TestHTTPServer+Downloads.swift`).
/// Paths outside the table come from `staticRoot` when given; the server can speak TLS. Every
/// request is logged (`requests()`), and the table may change while the server runs.
///
/// `@unchecked Sendable`: `routes`, `resources` and `bodies` are guarded by `lock`; the other
/// fields are set once in `init`; `stop()` is idempotent via Process.
public final class TestHTTPServer: @unchecked Sendable {
    public struct Route: Encodable, Sendable {
        public var status = 200
        public var headers: [String: String] = ["Content-Type": "text/html; charset=utf-8"]
        public var body = ""
        /// Raw bytes, base64 (wins over `body`).
        public var bodyBase64: String?
        public var delay: Double = 0
        public var gzip = false
        /// When set, the request must carry this `name=value` in its Cookie header, else `otherwise` answers.
        public var requireCookie: String?
        public var otherwise: [String: String]?  // {"status": "...", "body": "..."}
        /// Keeps the connection open after the answer even when the request said `Connection:
        /// close` (as a careless server does), so a client's next request on it would arrive.
        public var keepAlive = false
        /// Answers 304 to a request whose `If-None-Match` is the route's `ETag` header, or whose
        /// `If-Modified-Since` is its `Last-Modified`, as a feed host does.
        public var conditional = false

        public init(status: Int = 200, headers: [String: String] = ["Content-Type": "text/html; charset=utf-8"], body: String = "",
                    bodyBase64: String? = nil, delay: Double = 0, gzip: Bool = false, requireCookie: String? = nil,
                    otherwise: [String: String]? = nil) {
            self.status = status; self.headers = headers; self.body = body; self.bodyBase64 = bodyBase64
            self.delay = delay; self.gzip = gzip; self.requireCookie = requireCookie; self.otherwise = otherwise
        }

        public static func html(_ body: String, status: Int = 200) -> Route { Route(status: status, body: body) }
        public static func json(_ body: String, status: Int = 200) -> Route {
            Route(status: status, headers: ["Content-Type": "application/json"], body: body)
        }
    }

    /// One request as the server read it: `path` is the request target (query included),
    /// `headers` keep the names as the client sent them.
    public struct LoggedRequest: Decodable, Sendable {
        public let method: String
        public let path: String
        public let headers: [String: String]
        public let body: String

        /// A header by name, in any case.
        public func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    let process = Process()
    public let port: Int
    public let folder: URL
    public let scheme: String
    let lock = NSLock()
    var routes: [String: Route]
    var resources: [String: StoredResource] = [:]
    var bodies = 0

    public var baseURL: URL { URL(string: "\(scheme)://127.0.0.1:\(port)")! }
    public func url(_ path: String) -> URL { URL(string: "\(scheme)://127.0.0.1:\(port)\(path)")! }

    /// `port`: 0 lets the kernel pick one; a given one lets a test bring a server back on the
    /// address of one that went away.
    public init(routes: [String: Route] = [:], staticRoot: URL? = nil, tls: (cert: URL, key: URL)? = nil, port requested: Int = 0) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("piper-test-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func file(_ name: String) -> URL { folder.appendingPathComponent(name) }
        try Self.script.write(to: file("server.py"), atomically: true, encoding: .utf8)
        try Self.writeTable(routes: routes, resources: [:], to: file("table.json"))
        var args = [file("server.py").path, file("table.json").path, file("requests.jsonl").path, file("peak").path,
                    String(requested), staticRoot?.path ?? ""]
        if let tls { args += [tls.cert.path, tls.key.path] }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + args
        let out = Pipe()
        process.standardOutput = out
        FileManager.default.createFile(atPath: file("stderr.log").path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: file("stderr.log"))
        try process.run()
        // The first line is "PORT <n>" once the socket listens.
        let text = readFirstLine(out)
        guard text.hasPrefix("PORT "), let p = Int(text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let detail = (try? String(contentsOf: file("stderr.log"), encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(at: folder)
            throw TestServerError.didNotStart(text + detail)
        }
        self.folder = folder
        self.routes = routes
        scheme = tls == nil ? "http" : "https"
        port = p
    }

    deinit { stop() }

    public func stop() {
        // SIGKILL: the test runner's threads block SIGTERM, and a spawned child inherits that mask.
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Every request so far, in the order they arrived.
    public func requests() throws -> [LoggedRequest] {
        guard let text = try? String(contentsOf: file("requests.jsonl"), encoding: .utf8) else { return [] }
        // Only whole lines: the server may be writing the next one.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        return try lines.filter { !$0.isEmpty }.map { try JSONDecoder().decode(LoggedRequest.self, from: Data($0.utf8)) }
    }

    /// The requests for `path` (the target without its query), in order.
    public func requests(_ path: String) throws -> [LoggedRequest] {
        try requests().filter { $0.path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) == path }
    }

    /// Replaces the route at `path` (nil: removes it) while the server runs; the next request
    /// reads the new table.
    public func setRoute(_ path: String, _ route: Route?) throws {
        lock.lock()
        defer { lock.unlock() }
        routes[path] = route
        try writeTable()
    }

    /// The most connections open at the same time so far.
    public var peakConnections: Int {
        Int((try? String(contentsOf: file("peak"), encoding: .utf8)) ?? "") ?? 0
    }

    /// The most requests for `path` (a route with a `delay`) held at the same time so far.
    public func peakWaiting(_ path: String) -> Int {
        guard let data = try? Data(contentsOf: file("peak-waiting.json")),
              let counts = try? JSONDecoder().decode([String: Int].self, from: data) else { return 0 }
        return counts[path] ?? 0
    }

    public enum TestServerError: Error { case didNotStart(String) }

    func file(_ name: String) -> URL { folder.appendingPathComponent(name) }

    /// Writes the table the server reads on every request (atomically: a request sees the old
    /// table or the new one). Called with `lock` held.
    func writeTable() throws {
        try Self.writeTable(routes: routes, resources: resources, to: file("table.json"))
    }

    private static func writeTable(routes: [String: Route], resources: [String: StoredResource], to file: URL) throws {
        struct Table: Encodable {
            let routes: [String: Route]
            let resources: [String: StoredResource]
        }
        try JSONEncoder().encode(Table(routes: routes, resources: resources)).write(to: file, options: .atomic)
    }
}
