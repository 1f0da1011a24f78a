import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real HTTP server on 127.0.0.1, port 0, shared by the adapter and CLI tests: python3's `http.server`,
/// started as a subprocess and driven by a routes table. It logs every request, can stall
/// (for timeouts), redirect, gzip, require a cookie, serve a static folder, and speak TLS.
/// `@unchecked Sendable`: the fields are set once in `init`; `stop()` is idempotent via Process.
public final class TestHTTPServer: @unchecked Sendable {
    public struct Route: Encodable {
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

    public struct LoggedRequest: Decodable {
        public let method: String
        public let path: String
        public let headers: [String: String]
        public let body: String
    }

    let process = Process()
    public let port: Int
    public let folder: URL
    public let scheme: String

    public var baseURL: URL { URL(string: "\(scheme)://127.0.0.1:\(port)")! }
    public func url(_ path: String) -> URL { URL(string: "\(scheme)://127.0.0.1:\(port)\(path)")! }

    public init(routes: [String: Route], staticRoot: URL? = nil, tls: (cert: URL, key: URL)? = nil) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("piper-test-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = folder.appendingPathComponent("server.py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        let routesFile = folder.appendingPathComponent("routes.json")
        try JSONEncoder().encode(routes).write(to: routesFile)
        scheme = tls == nil ? "http" : "https"
        var args = [script.path, routesFile.path, folder.appendingPathComponent("requests.jsonl").path, staticRoot?.path ?? ""]
        if let tls { args += [tls.cert.path, tls.key.path] }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + args
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line is "PORT <n>" once the socket listens.
        let text = readFirstLine(out)
        guard text.hasPrefix("PORT "), let p = Int(text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            throw TestServerError.didNotStart(text)
        }
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

    public func requests() throws -> [LoggedRequest] {
        let log = folder.appendingPathComponent("requests.jsonl")
        guard let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { try JSONDecoder().decode(LoggedRequest.self, from: Data($0.utf8)) }
    }

    public enum TestServerError: Error { case didNotStart(String) }

    static let script = #"""
import base64, gzip, json, mimetypes, os, ssl, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

routes = json.load(open(sys.argv[1]))
log_path = sys.argv[2]
static_root = sys.argv[3]
lock = threading.Lock()

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args):
        pass
    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        with lock, open(log_path, "a") as log:
            log.write(json.dumps({"method": self.command, "path": self.path,
                                  "headers": {k: v for k, v in self.headers.items()},
                                  "body": body.decode("utf-8", "replace")}) + "\n")
        route = routes.get(self.path) or routes.get(self.path.split("?")[0])
        if route is None and static_root:
            path = os.path.normpath(os.path.join(static_root, self.path.split("?")[0].lstrip("/")))
            if path.startswith(static_root) and os.path.isfile(path):
                data = open(path, "rb").read()
                kind = mimetypes.guess_type(path)[0] or "application/octet-stream"
                if kind == "text/html":
                    kind = "text/html; charset=utf-8"
                return self.send(200, {"Content-Type": kind}, data)
        if route is None:
            return self.send(404, {"Content-Type": "text/plain"}, b"not found")
        if route.get("delay"):
            time.sleep(route["delay"])
        status, headers = route["status"], dict(route["headers"])
        data = base64.b64decode(route["bodyBase64"]) if route.get("bodyBase64") else route["body"].encode("utf-8")
        need = route.get("requireCookie")
        if need and need not in [c.strip() for c in (self.headers.get("Cookie") or "").split(";")]:
            other = route.get("otherwise") or {}
            status, data = int(other.get("status", "200")), other.get("body", "").encode("utf-8")
        if route.get("gzip"):
            data = gzip.compress(data)
            headers["Content-Encoding"] = "gzip"
        self.send(status, headers, data)
    def send(self, status, headers, data):
        try:
            self.send_response(status)
            for k, v in headers.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass
    do_GET = do_POST = do_HEAD = do_PUT = answer

server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
if len(sys.argv) > 5:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(sys.argv[4], sys.argv[5])
    server.socket = ctx.wrap_socket(server.socket, server_side=True)
print("PORT %d" % server.server_address[1], flush=True)
server.serve_forever()
"""#
}
