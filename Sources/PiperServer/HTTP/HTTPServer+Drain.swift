import CMicroHTTPD
import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A request whose answer comes later (a save, a share), with its suspended connection: what
/// a stop answers 503 when its grace period ends first.
///
/// `@unchecked Sendable`: the state's handoff is a mutex; the pointer is only resumed.
struct PendingAnswer: @unchecked Sendable {
    let state: RequestState
    let connection: SuspendedConnection
}

extension HTTPServer {
    /// How long a client is told to wait before it tries again (`Retry-After`) when the server
    /// answers 503 because it is stopping.
    static let retryAfterSeconds = 5

    /// The answer to a request the stopping server will not run: 503 with `Retry-After`, and
    /// the connection closed after it.
    static func stoppingAnswer(accept: String?) -> HTTPResponse {
        var answer = ErrorPage.negotiated(HTTPError(503, "The server is restarting; try again in a few seconds",
                                                    headers: [("Retry-After", "\(retryAfterSeconds)")]), accept: accept)
        answer.headers.append(("Connection", "close"))
        return answer
    }

    /// Stops gracefully: the listening socket closes at once (new connections are refused),
    /// a request arriving on a kept-alive connection is answered 503 with `Retry-After`, the
    /// requests under way (saves, shares answering later) get up to `grace` seconds to finish;
    /// those still waiting then are answered 503 with `Retry-After` (never half an answer), and
    /// the workers stop. Returns how many requests were answered 503 that way. `nil`: wait as
    /// long as the requests take.
    @discardableResult
    public func stop(grace: TimeInterval?) -> Int {
        lock.lock()
        let running = daemon
        daemon = nil
        lock.unlock()
        guard let running else { return 0 }
        draining.store(true, ordering: .releasing)
        // libmicrohttpd hands the listening socket back instead of closing it: close it now, so
        // the port refuses at once rather than queueing connections nobody will serve.
        let listener = MHD_quiesce_daemon(running)
        if listener >= 0 { close(listener) }
        var refused = 0
        if let grace {
            let deadline = Date().addingTimeInterval(max(0, grace))
            if !waitForRequests(until: deadline) {
                refused = answerPendingStopping()
                // Only the 503s going out are waited for: the late answers they replace are dropped.
                _ = waitForRequests(until: Date().addingTimeInterval(Self.sendGrace), laterAnswers: false)
            }
        } else {
            inFlight.wait()
        }
        MHD_stop_daemon(running)
        connections.stopSweeping()
        options.log?.flush()
        return refused
    }

    /// How long the 503s of a stop are given to go out once queued.
    static let sendGrace: TimeInterval = 2

    /// True once every request under way has been answered (and, with `laterAnswers`, every
    /// later answer has come), looked at every 10 ms until `deadline`.
    private func waitForRequests(until deadline: Date, laterAnswers: Bool = true) -> Bool {
        while activeRequests.load(ordering: .acquiring) > 0 || laterAnswers && !pending.withLock({ $0.isEmpty }) {
            if Date() >= deadline { return false }
            usleep(10_000)
        }
        return !laterAnswers || inFlight.wait(timeout: .now() + max(0, deadline.timeIntervalSinceNow)) == .success
    }

    /// Answers every request still waiting for its later answer with the stopping 503 and
    /// resumes its connection (the late answer, when it comes, is dropped).
    private func answerPendingStopping() -> Int {
        let waiting = pending.withLock { pending -> [PendingAnswer] in
            defer { pending.removeAll() }
            return Array(pending.values)
        }
        for entry in waiting where entry.state.answer(Self.stoppingAnswer(accept: entry.state.headers["accept"])) {
            MHD_resume_connection(entry.connection.pointer)
        }
        return waiting.count
    }

    var isDraining: Bool { draining.load(ordering: .acquiring) }

    func requestStarted() { activeRequests.wrappingAdd(1, ordering: .relaxed) }
    func requestEnded() { activeRequests.wrappingSubtract(1, ordering: .releasing) }
}
