import CMicroHTTPD
import Dispatch
import Foundation
import Synchronization

// libmicrohttpd calls these plain global functions on its worker threads. They live here, not in
// main.swift, because top-level code there is inferred @MainActor and would trap when C calls it.

/// Where a request stands between libmicrohttpd's calls, as `ShareFlow`'s steps are for a
/// share. The first call (the head) picks `prepared`, `reading`, `streaming` or `dropping`, or
/// answers at once; the calls that bring the body keep it (`reading`, `streaming`) or drop it
/// (`dropping`, `answered`); the last call answers: the responder runs (`answering`, then
/// `answered`, or `suspended` while an answer comes from another thread).
enum RequestStage {
    /// Answered from the path alone before the head was parsed (`PreparedAnswers`): sent on
    /// the next call.
    case prepared(ReusableResponse)
    /// The body is read into `RequestState.body`, up to the server's limit.
    case reading
    /// The body is written into a stream (an upload) as it comes.
    case streaming(any BodyStream)
    /// The rest of the body is read and dropped, then this is answered: a head over a limit
    /// (414, 431), a body over the limit (413), a stream that refused a write. Clients read no
    /// answer while they are still sending.
    case dropping(HTTPResponse)
    /// The responder runs, on this thread (a streamed body handed to it).
    case answering
    /// The responder answers later from another thread; the connection is suspended meanwhile.
    case suspended
    /// An answer is queued; anything more the client sends is dropped.
    case answered
}

/// Per-request state, kept in libmicrohttpd's `con_cls` slot from the first callback until the
/// completion callback. One connection is served by one worker thread at a time; a responder
/// that answers later hands its response over through `handoff`, a mutex.
///
/// `@unchecked Sendable`: apart from `handoff`, fields are only touched by the worker thread
/// serving the connection (libmicrohttpd does not call us for a suspended connection).
final class RequestState: @unchecked Sendable {
    let method: String
    let path: String
    let started: UInt64
    var headers: [String: String] = [:]
    /// Content-Length and Transfer-Encoding counted one by one, and the names' syntax.
    var framing = HeadFraming()
    var body: [UInt8] = []
    var stage = RequestStage.reading
    var query: [String: String] = [:]
    /// Who the request came from, once a responder said (for the access log).
    var device: String?
    var client = ""
    var status: Int?
    /// The connection's deadline state (nil if libmicrohttpd never reported it open).
    var watched: WatchedConnection?
    /// Inline, unlike an `NSLock` (an object of its own): a request's state is one allocation.
    private let handoff = Mutex(Handoff.waiting)

    /// Where a later answer stands. `waiting`: the responder is running on the worker thread;
    /// `suspended`: the worker returned and suspended the connection; `answered`: the response
    /// is here, to be sent by the worker thread (directly, or once the connection resumes).
    private enum Handoff {
        case waiting, suspended, answered(HTTPResponse), taken
    }

    /// Records the responder's answer. True when the connection is suspended and the caller must
    /// resume it so the worker thread sends the answer.
    /// The first answer wins: a late one after a stopping server's 503 is dropped.
    func answer(_ response: HTTPResponse) -> Bool {
        handoff.withLock { handoff in
            switch handoff {
            case .suspended:
                handoff = .answered(response)
                return true
            case .waiting:
                handoff = .answered(response)
                return false
            case .answered, .taken:
                return false
            }
        }
    }

    /// Called by the worker thread once the responder returned: the answer if it is already
    /// here, else nil after running `suspend` (under the lock, so an answer arriving meanwhile
    /// sees the connection suspended and resumes it).
    func answerOrSuspend(_ suspend: () -> Void) -> HTTPResponse? {
        handoff.withLock { handoff in
            if case .answered(let response) = handoff {
                handoff = .taken
                return response
            }
            suspend()
            stage = .suspended
            handoff = .suspended
            return nil
        }
    }

    /// After a resume: the answer, taken.
    func takeAnswer() -> HTTPResponse? {
        handoff.withLock { handoff in
            guard case .answered(let response) = handoff else { return nil }
            handoff = .taken
            return response
        }
    }

    init(method: String, path: String) {
        self.method = method
        self.path = path
        self.started = DispatchTime.now().uptimeNanoseconds
    }

    /// Takes a piece of the body as the stage says: kept, streamed, or dropped. Over `limit`
    /// the kept body is dropped and 413 answered at the end; a stream that refuses is abandoned
    /// (what it stored goes now) and its error answered at the end.
    func take(_ data: UnsafePointer<CChar>, count: Int, limit: Int) {
        switch stage {
        case .reading:
            if body.count + count > limit {
                body = []
                stage = .dropping(.error(.payloadTooLarge(limit: limit)))
            } else {
                data.withMemoryRebound(to: UInt8.self, capacity: count) {
                    body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
                }
            }
        case .streaming(let stream):
            do {
                try stream.write(UnsafeRawBufferPointer(start: data, count: count))
            } catch {
                stream.abandon()
                stage = .dropping(ErrorMiddleware.finished(.failure(error)))
            }
        case .prepared, .dropping, .answering, .suspended, .answered:
            break
        }
    }
}

func piperCollectHeader(_ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind,
                        _ key: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let state = Unmanaged<RequestState>.fromOpaque(cls).takeUnretainedValue()
    state.framing.count(name: key, value: value)
    state.headers[String(cString: key).lowercased()] = value.map { String(cString: $0) } ?? ""
    return .YES
}

func piperCollectQuery(_ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind,
                       _ key: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let state = Unmanaged<RequestState>.fromOpaque(cls).takeUnretainedValue()
    state.query[String(cString: key)] = value.map { String(cString: $0) } ?? ""
    return .YES
}

func piperAccessHandler(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                        _ url: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?,
                        _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
                        _ uploadDataSize: UnsafeMutablePointer<Int>?,
                        _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> MHD_Result {
    guard let cls, let connection, let conCls else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()

    guard let existing = conCls.pointee else {
        // First call: headers are in, no body yet. A cached page is found from the path alone.
        if let state = server.preparedRequest(connection, url: url, method: method) {
            conCls.pointee = Unmanaged.passRetained(state).toOpaque()
            server.requestStarted()
            return .YES
        }
        let state = RequestState(method: method.map { String(cString: $0) } ?? "",
                                 path: url.map { String(cString: $0) } ?? "/")
        conCls.pointee = Unmanaged.passRetained(state).toOpaque()
        server.requestStarted()
        _ = MHD_get_connection_values(connection, .HEADER_KIND, piperCollectHeader,
                                      Unmanaged.passUnretained(state).toOpaque())
        _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, piperCollectQuery,
                                      Unmanaged.passUnretained(state).toOpaque())
        state.watched = watchedConnection(connection)
        state.watched?.enter(.body, now: ConnectionGuard.now())
        if let refusal = state.framing.refusal {
            // Before any route, and answered now: libmicrohttpd reads no body after an early answer.
            return server.send(HeadFraming.answer(refusal, accept: state.headers["accept"]), state, connection)
        }
        if let refusal = server.headRefusal(state) {
            state.stage = .dropping(ErrorPage.negotiated(refusal, accept: state.headers["accept"]))
            return .YES
        }
        if server.isDraining {
            // Stopping: a request on a kept-alive connection is not run; its body is read and
            // dropped, then it is told to come back.
            state.stage = .dropping(HTTPServer.stoppingAnswer(accept: state.headers["accept"]))
            return .YES
        }
        if let streams = server.options.bodyStreams, server.options.plan?.streamsBody(HTTPMethod(rawValue: state.method), path: state.path) == true {
            let peer = state.watched?.client ?? HTTPServer.clientAddress(connection)
            if let stream = streams(HTTPRequest(method: HTTPMethod(rawValue: state.method), path: state.path, headers: state.headers, clientAddress: peer)) {
                if let refusal = stream.refusalBeforeBody {
                    stream.abandon()
                    return server.send(ErrorMiddleware.finished(.failure(refusal)), state, connection)
                }
                state.stage = .streaming(stream)
                return .YES
            }
        }
        let length = state.headers["content-length"].flatMap { Int($0) } ?? 0
        if length > server.options.maxBodyBytes {
            // A client sends its body before it reads (few send `Expect: 100-continue`): an
            // answer now closes the connection under the upload, and the client sees a broken
            // pipe, not the 413. A body up to four times the limit is read and dropped, then
            // answered (the slow-body deadline still applies); a larger one is refused at once.
            if length <= HTTPServer.drainFactor * server.options.maxBodyBytes {
                state.stage = .dropping(.error(.payloadTooLarge(limit: server.options.maxBodyBytes)))
                return .YES
            }
            return server.send(.error(.payloadTooLarge(limit: server.options.maxBodyBytes)), state, connection)
        }
        // Answering now would make libmicrohttpd close the connection (it cannot know the
        // request is complete), so even body-less requests are answered on the next call.
        return .YES
    }

    let state = Unmanaged<RequestState>.fromOpaque(existing).takeUnretainedValue()
    if case .prepared(let prepared) = state.stage {
        return server.send(prepared, state, connection)
    }
    if let size = uploadDataSize, size.pointee > 0 {
        // A piece of the body: kept, streamed or dropped as the stage says.
        if server.connections.limits.minBodyBytesPerSecond > 0 { state.watched?.received(size.pointee) }
        if let data = uploadData { state.take(data, count: size.pointee, limit: server.options.maxBodyBytes) }
        size.pointee = 0
        return .YES
    }
    // The body is complete (or there was none).
    switch state.stage {
    case .reading, .streaming:
        return server.handle(state, connection)
    case .dropping(let answer):
        state.client = server.logClient(state, connection)
        return server.send(answer, state, connection)
    case .suspended:
        // Resumed after an offloaded handler finished: send what it produced.
        guard let response = state.takeAnswer() else { return .YES }
        return server.send(response, state, connection)
    case .prepared, .answering, .answered:
        return .YES
    }
}

func piperRequestCompleted(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                           _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                           _ toe: MHD_RequestTerminationCode) {
    guard let cls, let conCls, let raw = conCls.pointee else { return }
    conCls.pointee = nil
    let state = Unmanaged<RequestState>.fromOpaque(raw).takeRetainedValue()
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    defer { server.requestEnded() }
    // The next request head's deadline starts now (a keep-alive connection stays open).
    let now = ConnectionGuard.now()
    state.watched?.enter(.idle, now: now)
    if case .streaming(let stream) = state.stage { stream.abandon() }   // never handed to a responder
    guard let status = state.status else { return }
    let elapsed = Double(now - state.started) / 1_000_000
    server.options.log?.record(method: state.method, path: state.path, status: status, milliseconds: elapsed,
               client: state.client, device: state.device)
}

extension HTTPServer {
    /// The 414 or 431 a request head has earned, if any.
    fileprivate func headRefusal(_ state: RequestState) -> HTTPError? {
        let query = state.query.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 2 }
        if state.path.utf8.count + query > options.maxURLBytes {
            return HTTPError(414, "The URL is longer than the limit of \(options.maxURLBytes) bytes")
        }
        let head = state.headers.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 4 }
        if head > options.maxHeaderBytes {
            return HTTPError(431, "The request headers are larger than the limit of \(options.maxHeaderBytes) bytes")
        }
        return nil
    }

    /// The client the access log names: the peer, or the address a trusted proxy forwards.
    fileprivate func logClient(_ state: RequestState, _ connection: OpaquePointer, peer: String? = nil) -> String {
        let peer = peer ?? state.watched?.client ?? Self.clientAddress(connection)
        return ClientAddress.resolve(peer: peer, forwardedFor: state.headers["x-forwarded-for"], trustedProxies: options.trustedProxies)
    }

    fileprivate func handle(_ state: RequestState, _ connection: OpaquePointer) -> MHD_Result {
        state.watched?.enter(.answering)
        let client = state.watched?.client ?? Self.clientAddress(connection)
        var request = HTTPRequest(method: HTTPMethod(rawValue: state.method), path: state.path, headers: state.headers,
                                  body: state.body, clientAddress: client)
        request.query = state.query
        state.client = logClient(state, connection, peer: client)
        state.body = []
        if case .streaming(let stream) = state.stage {
            do {
                try stream.finish()
            } catch {
                stream.abandon()
                return send(ErrorMiddleware.finished(.failure(error)), state, connection)
            }
            request.upload = stream
        }
        state.stage = .answering
        if options.plan?.answersLater(request.method, path: request.path) ?? (request.method == .post) {
            // The responder may answer later from another thread (a save, once committed); the
            // connection is suspended meanwhile so this worker thread serves others.
            let handle = SuspendedConnection(pointer: connection)
            let key = ObjectIdentifier(state)
            inFlight.enter()
            pending.withLock { $0[key] = PendingAnswer(state: state, connection: handle) }
            ErrorMiddleware(responder).respond(to: request) { [self] response in
                pending.withLock { _ = $0.removeValue(forKey: key) }
                if state.answer(response) { MHD_resume_connection(handle.pointer) }
                inFlight.leave()
            }
            guard let response = state.answerOrSuspend({ MHD_suspend_connection(connection) }) else { return .YES }
            return send(response, state, connection)
        }
        let response = ErrorMiddleware(responder).respond(to: request)
        return send(response, state, connection)
    }

    func send(_ response: HTTPResponse, _ state: RequestState, _ connection: OpaquePointer) -> MHD_Result {
        // Cut off by the sweep, which has answered and shut the socket: queue nothing after it.
        // Else the answer is going out, and its reader is held to the send floor from now.
        state.stage = .answered
        if state.watched?.enter(.sending, now: ConnectionGuard.now()) == false { return .NO }
        state.status = response.status
        state.device = response.device
        if let reusable = response.reusable, response.file == nil {
            return send(reusable, state, connection)
        }
        var made = response.file?.makeResponse()
        if let made { Self.addHeaders(response, to: made) } else { made = Self.makeResponse(response, copying: true) }
        guard let mhdResponse = made else { return .NO }
        let result = MHD_queue_response(connection, UInt32(response.status), mhdResponse)
        MHD_destroy_response(mhdResponse)
        return result
    }

    /// Queues `reusable`'s object: built once with its own copy of the body, then queued as is.
    func send(_ reusable: ReusableResponse, _ state: RequestState, _ connection: OpaquePointer) -> MHD_Result {
        state.stage = .answered
        if state.watched?.enter(.sending, now: ConnectionGuard.now()) == false { return .NO }
        state.status = reusable.response.status
        state.device = reusable.response.device
        guard let built = reusable.handle({ Self.makeResponse($0, copying: false) }) else { return .NO }
        return MHD_queue_response(connection, UInt32(reusable.response.status), built)
    }

    static func clientAddress(_ connection: OpaquePointer) -> String {
        var address = [CChar](repeating: 0, count: 64)
        return piper_mhd_client_address(connection, &address, socklen_t(address.count)) == 0 ? ClientAddress.string(address) : ""
    }

    /// A libmicrohttpd response with `response`'s body and headers. `copying`: libmicrohttpd
    /// copies the body (for a response sent once); else it takes a malloc'd copy it frees
    /// when the object is destroyed (a `ReusableResponse` outlives this call).
    private static func makeResponse(_ response: HTTPResponse, copying: Bool) -> OpaquePointer? {
        let made: OpaquePointer? = response.body.withUnsafeBytes { bytes in
            if copying {
                return MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                                       .RESPMEM_MUST_COPY)
            }
            guard let copy = malloc(max(1, bytes.count)) else { return nil }
            if let base = bytes.baseAddress { memcpy(copy, base, bytes.count) }
            guard let made = MHD_create_response_from_buffer(bytes.count, copy, .RESPMEM_MUST_FREE) else {
                free(copy)
                return nil
            }
            return made
        }
        if let made { addHeaders(response, to: made) }
        return made
    }

    private static func addHeaders(_ response: HTTPResponse, to made: OpaquePointer) {
        for header in response.headers {
            _ = MHD_add_response_header(made, header.name, header.value)
        }
    }
}

/// A suspended libmicrohttpd connection handed to a responder that answers later.
///
/// `@unchecked Sendable`: the pointer is only used for `MHD_resume_connection`, which the
/// library allows from any thread.
struct SuspendedConnection: @unchecked Sendable {
    let pointer: OpaquePointer
}
