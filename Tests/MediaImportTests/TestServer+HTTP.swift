import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension TestServer {
    func handle(_ fd: Int32) {
        var closeNormally = true
        defer { if closeNormally { shutdown(fd, Int32(SHUT_WR)); drain(fd); close(fd) } }
        guard let request = readRequest(fd) else { return }
        guard let (resource, faults, n) = lookup(request) else {
            sendAll(fd, head(404, ["Content-Length": "9"]) + Array("not found".utf8))
            return
        }
        for fault in faults {
            if case .basicAuth(let credentials) = fault,
               request.header("authorization") != "Basic " + Data(credentials.utf8).base64EncodedString() {
                sendAll(fd, head(401, ["WWW-Authenticate": "Basic realm=\"piper\"", "Content-Length": "6"]) + Array("denied".utf8))
                return
            }
            if case .status(let code, let times, let retryAfter) = fault, n <= times {
                var headers = ["Content-Type": "text/plain", "Content-Length": "5"]
                if let retryAfter { headers["Retry-After"] = retryAfter }
                sendAll(fd, head(code, headers) + Array("error".utf8))
                return
            }
        }
        let total = resource.body.count
        var headers: [String: String] = ["Content-Type": resource.contentType]
        if let etag = resource.etag { headers["ETag"] = etag }
        if let lm = resource.lastModified { headers["Last-Modified"] = lm }
        if let cd = resource.contentDisposition { headers["Content-Disposition"] = cd }
        if resource.supportsRanges { headers["Accept-Ranges"] = "bytes" }

        var status = 200
        var start = 0
        if resource.supportsRanges, let range = request.header("range"), let from = Self.rangeStart(range) {
            let validator = request.header("if-range")
            let ignoresIfRange = faults.contains { if case .ignoreIfRange = $0 { return true }; return false }
            let matches = validator == nil || validator == resource.etag || validator == resource.lastModified || ignoresIfRange
            if faults.contains(where: { if case .always416 = $0 { return true }; return false }) || (matches && from >= total) {
                sendAll(fd, head(416, ["Content-Range": "bytes */\(total)", "Content-Length": "0"]))
                return
            }
            if matches {
                status = 206
                start = from
                headers["Content-Range"] = "bytes \(from)-\(total - 1)/\(total)"
            }
        }
        let body = resource.body[start...]
        headers["Content-Length"] = "\(body.count)"
        for fault in faults {
            switch fault {
            case .noContentLength: headers["Content-Length"] = nil
            case .claimLength(let length): headers["Content-Length"] = "\(length)"
            case .header(let name, let value): headers[name] = value
            default: continue
            }
        }
        guard sendAll(fd, head(status, headers)), request.method != "HEAD" else { return }

        for fault in faults {
            switch fault {
            case .resetAfter(let bytes, let times) where n <= times:
                sendAll(fd, Array(body.prefix(bytes)))
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                closeNormally = false
                close(fd)
                return
            case .shortBody(let bytes, let times) where n <= times:
                sendAll(fd, Array(body.prefix(bytes)))
                return
            case .stall(let bytes, let seconds, let times) where n <= times:
                sendAll(fd, Array(body.prefix(bytes)))
                Thread.sleep(forTimeInterval: seconds)
                return
            case .drip(let chunk, let interval):
                var offset = body.startIndex
                while offset < body.endIndex {
                    let end = min(offset + chunk, body.endIndex)
                    guard sendAll(fd, Array(body[offset..<end])) else { return }
                    offset = end
                    if offset < body.endIndex { Thread.sleep(forTimeInterval: interval) }
                }
                return
            default:
                continue
            }
        }
        sendAll(fd, Array(body))
    }

    private func head(_ status: Int, _ headers: [String: String]) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(status == 200 ? "OK" : status == 206 ? "Partial Content" : "Status")\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        text += "Connection: close\r\n\r\n"
        return Array(text.utf8)
    }

    static func rangeStart(_ header: String) -> Int? {
        guard header.hasPrefix("bytes=") else { return nil }
        return Int(header.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false).first ?? "")
    }

    @discardableResult
    func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0 { if errno == EINTR { continue }; return false }
            offset += n
        }
        return true
    }

    private func drain(_ fd: Int32) {
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while buffer.withUnsafeMutableBytes({ recv(fd, $0.baseAddress, $0.count, 0) }) > 0 {}
    }

    private func readRequest(_ fd: Int32) -> Recorded? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while data.count < 65_536 {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return nil }
            data += buffer[0..<n]
            if data.count >= 4, data.suffix(4) == [13, 10, 13, 10] { break }
        }
        let lines = String(decoding: data, as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let target = String(parts[1])
        let path = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? target
        return Recorded(method: String(parts[0]), path: path, headers: headers)
    }
}
