#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The Chrome DevTools Protocol over the browser's pipe: NUL-terminated JSON messages.
/// Synchronous: `call` writes a request and reads until its answer arrives, keeping the events
/// it sees on the way. Several threads may drive one connection (the server's browser pool: a
/// tab each): `pipe` is held from a request's write to its answer, and a wait for an event or a
/// pause reads a message at a time, so each thread's turn is short and the pipe keeps flowing.
///
/// `@unchecked Sendable`: `nextID`, `buffer` and `events` are touched only under `pipe`.
final class CDPConnection: @unchecked Sendable {
    typealias JSON = [String: Any]

    private let process: ChromiumProcess
    private let pipe = NSLock()
    private var nextID = 1
    private var buffer: [UInt8] = []
    private var events: [JSON] = []
    /// The events seen so far and not waited for.
    var seenEvents: [JSON] { pipe.withLock { events } }
    /// How long one turn of a wait holds the pipe.
    private static let turn: TimeInterval = 0.05

    init(process: ChromiumProcess) { self.process = process }

    /// Sends `method` and returns its `result`. A CDP error answer throws.
    @discardableResult
    func call(_ method: String, _ params: JSON = [:], session: String? = nil, deadline: Date) throws -> JSON {
        pipe.lock()
        defer { pipe.unlock() }
        let id = nextID
        nextID += 1
        var message: JSON = ["id": id, "method": method, "params": params]
        if let session { message["sessionId"] = session }
        try write(message)
        while true {
            guard let answer = try readMessage(deadline: deadline, waitingFor: method) else { continue }
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
            pipe.lock()
            if let i = events.firstIndex(where: { ($0["method"] as? String) == method && ($0["sessionId"] as? String) == session }) {
                defer { pipe.unlock() }
                return events.remove(at: i)
            }
            if deadline.timeIntervalSinceNow <= 0 {
                pipe.unlock()
                throw BrowserFailure.timedOut(method)
            }
            do {
                if let message = try readMessage(deadline: min(deadline, Date().addingTimeInterval(Self.turn)), waitingFor: method, orNil: true) {
                    events.append(message)
                }
            } catch {
                pipe.unlock()
                throw error
            }
            pipe.unlock()
        }
    }

    /// Forgets the events named `method` seen so far (so a wait sees only later ones).
    func discardEvents(_ method: String) {
        pipe.withLock { events.removeAll { ($0["method"] as? String) == method } }
    }

    /// Forgets every event of a session that is gone (a closed tab).
    func discardEvents(session: String) {
        pipe.withLock { events.removeAll { ($0["sessionId"] as? String) == session } }
    }

    /// Reads (and keeps) events until `deadline`: a pause that doesn't let the pipe fill up.
    func drain(until deadline: Date) {
        while deadline.timeIntervalSinceNow > 0 {
            let stop: Bool = pipe.withLock {
                guard let message = try? readMessage(deadline: min(deadline, Date().addingTimeInterval(Self.turn)), waitingFor: "settle",
                                                     orNil: true) else { return process.finished }
                if message["method"] != nil { events.append(message) }
                return false
            }
            if stop { return }
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

    /// The next message; at `deadline`, nil with `orNil`, else `BrowserFailure.timedOut`.
    private func readMessage(deadline: Date, waitingFor what: String, orNil: Bool = false) throws -> JSON? {
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
            guard remaining > 0 else {
                if orNil { return nil }
                throw BrowserFailure.timedOut(what)
            }
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
