#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The Chrome DevTools Protocol over the browser's pipe: NUL-terminated JSON messages.
/// Synchronous: `call` writes a request and waits until its answer arrives. Several threads may
/// drive one connection (the server's browser pool: a tab each), so every wait (for an answer,
/// an event or a pause) reads a message at a time under `pipe` and keeps what it reads for
/// whoever waits for it: each thread's turn is short, the pipe keeps flowing, and a slow
/// answer (a `Page.navigate` that waits for its page's first byte) holds up no other tab.
/// A session whose renderer crashed (`Inspector.targetCrashed`) fails its calls and waits at
/// once with `BrowserFailure.crashed`, instead of waiting for answers that never come.
///
/// `@unchecked Sendable`: `nextID`, `buffer`, `events`, `answers` and `abandoned` are touched
/// only under `pipe`.
final class CDPConnection: @unchecked Sendable {
    typealias JSON = [String: Any]

    private let process: ChromiumProcess
    private let pipe = NSLock()
    private var nextID = 1
    private var buffer: [UInt8] = []
    private var events: [JSON] = []
    /// Answers read by one thread for another's call, by request id.
    private var answers: [Int: JSON] = [:]
    /// Calls that gave up waiting: their answers, if they come, are dropped.
    private var abandoned: Set<Int> = []
    /// The sessions whose renderer crashed (`crashEvent` seen), asked on every turn of a wait.
    private var crashed: Set<String> = []
    /// The events seen so far and not waited for.
    var seenEvents: [JSON] { pipe.withLock { events } }
    /// How long one turn of a wait holds the pipe.
    private static let turn: TimeInterval = 0.05

    init(process: ChromiumProcess) { self.process = process }

    /// The event that says a session's renderer died.
    static let crashEvent = "Inspector.targetCrashed"

    /// Sends `method` and returns its `result`. A CDP error answer throws.
    @discardableResult
    func call(_ method: String, _ params: JSON = [:], session: String? = nil, deadline: Date) throws -> JSON {
        let id: Int = try pipe.withLock {
            try checkCrash(session)
            let id = nextID
            nextID += 1
            var message: JSON = ["id": id, "method": method, "params": params]
            if let session { message["sessionId"] = session }
            try write(message)
            return id
        }
        let answer: JSON = try waitTurns(deadline: deadline, what: method, session: session, onTimeout: { abandoned.insert(id) }) {
            answers.removeValue(forKey: id)
        }
        if let error = answer["error"] as? JSON {
            throw BrowserFailure.protocolError("\(method): \(error["message"] as? String ?? "unknown error")")
        }
        return answer["result"] as? JSON ?? [:]
    }

    /// Waits for an event named `method` (already seen or still to come).
    func waitForEvent(_ method: String, session: String?, deadline: Date) throws -> JSON {
        try waitTurns(deadline: deadline, what: method, session: session) {
            events.firstIndex { ($0["method"] as? String) == method && ($0["sessionId"] as? String) == session }
                .map { events.remove(at: $0) }
        }
    }

    /// Turns under `pipe` until `found` (asked under it) has something: each turn reads at most
    /// one message, for a moment, and keeps it. A crash of `session` or the deadline ends it.
    private func waitTurns<T>(deadline: Date, what: String, session: String?, onTimeout: () -> Void = {},
                              _ found: () -> T?) throws -> T {
        while true {
            pipe.lock()
            defer { pipe.unlock() }
            if let value = found() { return value }
            do {
                try checkCrash(session)
                if deadline.timeIntervalSinceNow <= 0 { throw BrowserFailure.timedOut(what) }
                if let message = try readMessage(deadline: min(deadline, Date().addingTimeInterval(Self.turn)), waitingFor: what, orNil: true) {
                    keep(message)
                }
            } catch {
                // However the wait ends without its answer, an answer that comes later is dropped.
                onTimeout()
                throw error
            }
        }
    }

    /// Files a message read from the pipe: an answer for its call, an event for its waiter.
    private func keep(_ message: JSON) {
        if let id = message["id"] as? Int {
            if abandoned.remove(id) == nil { answers[id] = message }
        } else if let method = message["method"] as? String {
            if method == Self.crashEvent, let session = message["sessionId"] as? String { crashed.insert(session) }
            events.append(message)
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

    /// Reads (and keeps) messages until `deadline`: a pause that doesn't let the pipe fill up.
    /// It ends early when `session`'s renderer has crashed (the next call says so).
    func drain(until deadline: Date, session: String? = nil) {
        while deadline.timeIntervalSinceNow > 0 {
            let stop: Bool = pipe.withLock {
                if session != nil, (try? checkCrash(session)) == nil { return true }
                guard let message = try? readMessage(deadline: min(deadline, Date().addingTimeInterval(Self.turn)), waitingFor: "settle",
                                                     orNil: true) else { return process.finished }
                keep(message)
                return false
            }
            if stop { return }
        }
    }

    /// Throws `BrowserFailure.crashed` once `session`'s renderer has crashed. Under `pipe`.
    private func checkCrash(_ session: String?) throws {
        guard let session else { return }
        if crashed.contains(session) { throw BrowserFailure.crashed }
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
