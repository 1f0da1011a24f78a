#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The Chrome DevTools Protocol over the browser's pipe: NUL-terminated JSON messages.
/// Synchronous: `call` writes a request and reads until its answer arrives, keeping the events
/// it sees on the way. Not Sendable: one thread drives it.
final class CDPConnection {
    typealias JSON = [String: Any]

    private let process: ChromiumProcess
    private var nextID = 1
    private var buffer: [UInt8] = []
    private(set) var events: [JSON] = []

    init(process: ChromiumProcess) { self.process = process }

    /// Sends `method` and returns its `result`. A CDP error answer throws.
    @discardableResult
    func call(_ method: String, _ params: JSON = [:], session: String? = nil, deadline: Date) throws -> JSON {
        let id = nextID
        nextID += 1
        var message: JSON = ["id": id, "method": method, "params": params]
        if let session { message["sessionId"] = session }
        try write(message)
        while true {
            let answer = try readMessage(deadline: deadline, waitingFor: method)
            guard (answer["id"] as? Int) == id else {
                if answer["method"] != nil { events.append(answer) }
                continue
            }
            if let error = answer["error"] as? JSON {
                throw BrowserFailure.protocolError("\(method): \(error["message"] as? String ?? "unknown error")")
            }
            return answer["result"] as? JSON ?? [:]
        }
    }

    /// Waits for an event named `method` (already seen or still to come).
    func waitForEvent(_ method: String, session: String?, deadline: Date) throws -> JSON {
        while true {
            if let i = events.firstIndex(where: { ($0["method"] as? String) == method && ($0["sessionId"] as? String) == session }) {
                return events.remove(at: i)
            }
            events.append(try readMessage(deadline: deadline, waitingFor: method))
        }
    }

    /// Forgets the events named `method` seen so far (so a wait sees only later ones).
    func discardEvents(_ method: String) {
        events.removeAll { ($0["method"] as? String) == method }
    }

    /// Reads (and keeps) events until `deadline`: a pause that doesn't let the pipe fill up.
    func drain(until deadline: Date) {
        while let message = try? readMessage(deadline: deadline, waitingFor: "settle") {
            if message["method"] != nil { events.append(message) }
        }
    }

    private func write(_ message: JSON) throws {
        // After `terminate()` the pipe's descriptor number may name another open file (a
        // socket another thread opened since): a write there would land in it.
        guard !process.finished else { throw BrowserFailure.exited }
        var data = try JSONSerialization.data(withJSONObject: message)
        data.append(0)
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(process.toBrowser, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw BrowserFailure.exited
                }
                offset += n
            }
        }
    }

    private func readMessage(deadline: Date, waitingFor what: String) throws -> JSON {
        guard !process.finished else { throw BrowserFailure.exited }   // (see `write`: the number may be reused)
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let bytes = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? JSON else {
                    throw BrowserFailure.protocolError("unreadable message")
                }
                return object
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw BrowserFailure.timedOut(what) }
            var pfd = pollfd(fd: process.fromBrowser, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(min(remaining, 3600) * 1000) + 1)
            if ready < 0 {
                if errno == EINTR { continue }
                throw BrowserFailure.protocolError("poll: \(String(cString: strerror(errno)))")
            }
            if ready == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { Glibc.read(process.fromBrowser, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw BrowserFailure.exited
            }
            if n == 0 { throw BrowserFailure.exited }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }
}
