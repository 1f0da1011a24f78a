extension TestHTTPServer {
    /// The server: argv is the table, the request log, the peak-connections file, the port
    /// (0: any), the static folder ("" for none) and, for TLS, the certificate and key.
    static let script = #"""
import base64, gzip, json, mimetypes, os, socket, ssl, struct, sys, threading, time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

table_path, log_path, peak_path, port, static_root = sys.argv[1:6]
lock = threading.Lock()
counts = {}  # requests per resource path
connections = {"open": 0, "peak": 0}
waiting = {}  # requests of a delayed route being held now, per path
most_waiting = {}  # the most held at once, per path

def replace_file(path, text):
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)

def range_start(header):
    if not header or not header.startswith("bytes="):
        return None
    first = header[6:].split("-")[0]
    return int(first) if first.isdigit() else None

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args):
        pass
    def setup(self):
        super().setup()
        with lock:
            connections["open"] += 1
            if connections["open"] > connections["peak"]:
                connections["peak"] = connections["open"]
                replace_file(peak_path, str(connections["peak"]))
    def finish(self):
        try:
            super().finish()
        finally:
            with lock:
                connections["open"] -= 1
    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        with lock, open(log_path, "a") as log:
            log.write(json.dumps({"method": self.command, "path": self.path,
                                  "headers": {k: v for k, v in self.headers.items()},
                                  "body": body.decode("utf-8", "replace")}) + "\n")
        with open(table_path) as f:
            table = json.load(f)
        path = self.path.split("?")[0]
        resource = table["resources"].get(path)
        if resource is not None:
            with lock:
                counts[path] = n = counts.get(path, 0) + 1
            return self.serve_resource(resource, n)
        route = table["routes"].get(self.path) or table["routes"].get(path)
        if route is None and static_root:
            file = os.path.normpath(os.path.join(static_root, path.lstrip("/")))
            if file.startswith(static_root) and os.path.isfile(file):
                data = open(file, "rb").read()
                kind = mimetypes.guess_type(file)[0] or "application/octet-stream"
                if kind == "text/html":
                    kind = "text/html; charset=utf-8"
                return self.send(200, {"Content-Type": kind}, data)
        if route is None:
            return self.send(404, {"Content-Type": "text/plain"}, b"not found")
        if route.get("delay"):
            with lock:
                waiting[path] = waiting.get(path, 0) + 1
                most_waiting[path] = max(most_waiting.get(path, 0), waiting[path])
                replace_file(peak_path + "-waiting.json", json.dumps(most_waiting))
            time.sleep(route["delay"])
            with lock:
                waiting[path] -= 1
        status, headers = route["status"], dict(route["headers"])
        data = base64.b64decode(route["bodyBase64"]) if route.get("bodyBase64") else route["body"].encode("utf-8")
        need = route.get("requireCookie")
        if need and need not in [c.strip() for c in (self.headers.get("Cookie") or "").split(";")]:
            other = route.get("otherwise") or {}
            status, data = int(other.get("status", "200")), other.get("body", "").encode("utf-8")
        if route.get("conditional") and status == 200:
            etag, modified = headers.get("ETag"), headers.get("Last-Modified")
            if (etag and self.headers.get("If-None-Match") == etag) or (modified and self.headers.get("If-Modified-Since") == modified):
                return self.send(304, {k: v for k, v in headers.items() if k in ("ETag", "Last-Modified")}, b"")
        if route.get("gzip"):
            data = gzip.compress(data)
            headers["Content-Encoding"] = "gzip"
        self.send(status, headers, data)
        if route.get("keepAlive"):
            self.close_connection = False
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

    # Resources: one response per connection, written byte for byte, faults injected.
    def serve_resource(self, resource, n):
        self.close_connection = True
        faults = resource["faults"]
        for fault in faults:
            if fault["kind"] == "replace" and n > fault["afterRequests"]:
                resource = fault["resource"]
        faults = [f for f in faults if f["kind"] != "replace"]
        kinds = {f["kind"] for f in faults}
        for fault in faults:
            if fault["kind"] == "basicAuth":
                expected = "Basic " + base64.b64encode(fault["credentials"].encode("utf-8")).decode("ascii")
                if self.headers.get("Authorization") != expected:
                    self.raw(self.head(401, {"WWW-Authenticate": 'Basic realm="piper"', "Content-Length": "6"}) + b"denied")
                    return self.close_cleanly()
            if fault["kind"] == "status" and n <= fault["times"]:
                headers = {"Content-Type": "text/plain", "Content-Length": "5"}
                if fault.get("retryAfter") is not None:
                    headers["Retry-After"] = fault["retryAfter"]
                self.raw(self.head(fault["code"], headers) + b"error")
                return self.close_cleanly()
        with open(resource["bodyFile"], "rb") as f:
            body = f.read()
        total = len(body)
        headers = {"Content-Type": resource["contentType"]}
        for name, key in (("ETag", "etag"), ("Last-Modified", "lastModified"), ("Content-Disposition", "contentDisposition")):
            if resource.get(key) is not None:
                headers[name] = resource[key]
        if resource["supportsRanges"]:
            headers["Accept-Ranges"] = "bytes"
        status, start = 200, 0
        start_at = range_start(self.headers.get("Range")) if resource["supportsRanges"] else None
        if start_at is not None:
            validator = self.headers.get("If-Range")
            matches = (validator is None or validator == resource.get("etag") or validator == resource.get("lastModified")
                       or "ignoreIfRange" in kinds)
            if "always416" in kinds or (matches and start_at >= total):
                self.raw(self.head(416, {"Content-Range": "bytes */%d" % total, "Content-Length": "0"}))
                return self.close_cleanly()
            if matches:
                status, start = 206, start_at
                headers["Content-Range"] = "bytes %d-%d/%d" % (start_at, total - 1, total)
        body = body[start:]
        headers["Content-Length"] = str(len(body))
        for fault in faults:
            if fault["kind"] == "noContentLength":
                headers.pop("Content-Length", None)
            elif fault["kind"] == "claimLength":
                headers["Content-Length"] = str(fault["length"])
            elif fault["kind"] == "header":
                headers[fault["name"]] = fault["value"]
        repeated = [(f["name"], f["value"]) for f in faults if f["kind"] == "repeatedHeader"]
        if not self.raw(self.head(status, headers, repeated)) or self.command == "HEAD":
            return self.close_cleanly()
        for fault in faults:
            kind, times = fault["kind"], fault.get("times", 0)
            if kind == "resetAfter" and n <= times:
                self.raw(body[:fault["bytes"]])
                return self.reset()
            if kind == "shortBody" and n <= times:
                self.raw(body[:fault["bytes"]])
                return self.close_cleanly()
            if kind == "stall" and n <= times:
                self.raw(body[:fault["bytes"]])
                time.sleep(fault["seconds"])
                return self.close_cleanly()
            if kind == "drip":
                offset = 0
                while offset < len(body):
                    end = min(offset + fault["chunk"], len(body))
                    if not self.raw(body[offset:end]):
                        return self.close_cleanly()
                    offset = end
                    if offset < len(body):
                        time.sleep(fault["interval"])
                return self.close_cleanly()
        self.raw(body)
        self.close_cleanly()
    def head(self, status, headers, repeated=()):
        try:
            reason = HTTPStatus(status).phrase
        except ValueError:
            reason = "Status"
        lines = ["HTTP/1.1 %d %s" % (status, reason)] + ["%s: %s" % (k, headers[k]) for k in sorted(headers)]
        lines += ["%s: %s" % pair for pair in repeated]
        return ("\r\n".join(lines + ["Connection: close", "", ""])).encode("latin-1")
    def raw(self, data):
        try:
            self.connection.sendall(data)
            return True
        except OSError:
            return False
    def close_cleanly(self):
        # FIN first, then read what the client still sends (for up to a second) so that the
        # close never turns into a reset.
        try:
            self.connection.shutdown(socket.SHUT_WR)
            self.connection.settimeout(1)
            while self.connection.recv(4096):
                pass
        except OSError:
            pass
    def reset(self):
        # SO_LINGER 0: close() sends RST, not FIN. detach() so no later shutdown sends a FIN first.
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        os.close(self.connection.detach())

    do_GET = do_POST = do_HEAD = do_PUT = answer

class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64

server = Server(("127.0.0.1", int(port)), Handler)
if len(sys.argv) > 7:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(sys.argv[6], sys.argv[7])
    server.socket = ctx.wrap_socket(server.socket, server_side=True)
print("PORT %d" % server.server_address[1], flush=True)
server.serve_forever()
"""#
}
