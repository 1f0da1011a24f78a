import CMicroHTTPD
import Dispatch
import Foundation
import Synchronization

// libmicrohttpd calls these plain global functions on its worker threads. They live here, not in
// main.swift, because top-level code there is inferred @MainActor and would trap when C calls it.

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
    var tooLarge = false
    /// Set on the first call when the head breaks a limit (414, 431): the body is dropped.
    var refusal: HTTPError?
    var query: [String: String] = [:]
    /// The body's destination when it streams; `streamFailed` once it refused.
    var stream: (any BodyStream)?
    var streamHandedOver = false
    var streamError: (any Error)?
    /// Who the request came from, once a responder said (for the access log).
    var device: String?
    var client = ""
    var status: Int?
    var suspended = false
    /// The connection's deadline state (nil if libmicrohttpd never reported it open).
    var watched: WatchedConnection?
    /// The answer found before the request was parsed (`PreparedAnswers`), sent on the next call.
    var prepared: ReusableResponse?
    /// Inline, unlike an `NSLock` (an object of its own): a request's state is one allocation.
    private let handoff = Mutex(Handoff.waiting)

    /// Where a later answer stands. `waiting`: the responder is running on the worker thread;
    /// `suspended`: the worker returned and suspended the connection; `answered`: the response
    /// is here, to be sent by the worker thread (directly, or once the connection resumes).
    private enum Handoff {
        case waiting, suspended, answered(HTTPResponse)
    }

    /// Records the responder's answer. True when the connection is suspended and the caller must
    /// resume it so the worker thread sends the answer.
    func answer(_ response: HTTPResponse) -> Bool {
        handoff.withLock { handoff in
            let mustResume: Bool
            if case .suspended = handoff { mustResume = true } else { mustResume = false }
            handoff = .answered(response)
            return mustResume
        }
    }

    /// Called by the worker thread once the responder returned: the answer if it is already
    /// here, else nil after running `suspend` (under the lock, so an answer arriving meanwhile
    /// sees the connection suspended and resumes it).
    func answerOrSuspend(_ suspend: () -> Void) -> HTTPResponse? {
        handoff.withLock { handoff in
            if case .answered(let response) = handoff {
                handoff = .waiting
                return response
            }
            suspend()
            suspended = true
            handoff = .suspended
            return nil
        }
    }

    /// After a resume: the answer, taken.
    func takeAnswer() -> HTTPResponse? {
        handoff.withLock { handoff in
            guard case .answered(let response) = handoff else { return nil }
            handoff = .waiting
            return response
        }
    }

    init(method: String, path: String) {
        self.method = method
        self.path = path
        self.started = DispatchTime.now().uptimeNanoseconds
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
            return .YES
        }
        let state = RequestState(method: method.map { String(cString: $0) } ?? "",
                                 path: url.map { String(cString: $0) } ?? "/")
        conCls.pointee = Unmanaged.passRetained(state).toOpaque()
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
        state.refusal = server.headRefusal(state)
        if state.refusal != nil { return .YES }
        if let streams = server.options.bodyStreams {
            let peer = state.watched?.client ?? HTTPServer.clientAddress(connection)
            state.stream = streams(HTTPRequest(method: state.method, path: state.path, headers: state.headers, clientAddress: peer))
        }
        if let stream = state.stream, let refusal = stream.refusalBeforeBody {
            stream.abandon()
            state.stream = nil
            return server.send(ErrorMiddleware.finished(.failure(refusal)), state, connection)
        }
        let length = state.headers["content-length"].flatMap { Int($0) } ?? 0
        if state.stream == nil && length > server.options.maxBodyBytes {
            // A client sends its body before it reads (few send `Expect: 100-continue`): an
            // answer now closes the connection under the upload, and the client sees a broken
            // pipe, not the 413. A body up to four times the limit is read and dropped, then
            // answered (the slow-body deadline still applies); a larger one is refused at once.
            if length <= HTTPServer.drainFactor * server.options.maxBodyBytes {
                state.tooLarge = true
                return .YES
            }
            return server.send(.error(.payloadTooLarge(limit: server.options.maxBodyBytes)), state, connection)
        }
        // Answering now would make libmicrohttpd close the connection (it cannot know the
        // request is complete), so even body-less requests are answered on the next call.
        return .YES
    }

    let state = Unmanaged<RequestState>.fromOpaque(existing).takeUnretainedValue()
    if let prepared = state.prepared {
        state.prepared = nil
        return server.send(prepared, state, connection)
    }
    if let size = uploadDataSize, size.pointee > 0, server.connections.limits.minBodyBytesPerSecond > 0 {
        state.watched?.received(size.pointee)
    }
    if let size = uploadDataSize, size.pointee > 0, let stream = state.stream {
        let count = size.pointee
        size.pointee = 0
        guard state.status == nil, state.streamError == nil, let data = uploadData else { return .YES }
        do {
            try stream.write(UnsafeRawBufferPointer(start: data, count: count))
        } catch {
            // What was stored goes now; the rest of the body is read and dropped, then answered
            // (clients read no answer they are still sending into).
            stream.abandon()
            state.streamError = error
        }
        return .YES
    }
    if let size = uploadDataSize, size.pointee > 0 {
        if state.status == nil, !state.tooLarge, state.refusal == nil, let data = uploadData {
            if state.body.count + size.pointee > server.options.maxBodyBytes {
                state.tooLarge = true
                state.body = []
            } else {
                data.withMemoryRebound(to: UInt8.self, capacity: size.pointee) {
                    state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: size.pointee))
                }
            }
        }
        size.pointee = 0
        return .YES
    }
    if state.suspended {
        // Resumed after an offloaded handler finished: send what it produced.
        guard let response = state.takeAnswer() else { return .YES }
        state.suspended = false
        return server.send(response, state, connection)
    }
    if state.status != nil { return .YES }
    if let refusal = state.refusal {
        return server.send(ErrorPage.negotiated(refusal, accept: state.headers["accept"]), state, connection)
    }
    if state.tooLarge {
        return server.send(.error(.payloadTooLarge(limit: server.options.maxBodyBytes)), state, connection)
    }
    return server.handle(state, connection)
}

func piperRequestCompleted(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                           _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                           _ toe: MHD_RequestTerminationCode) {
    guard let cls, let conCls, let raw = conCls.pointee else { return }
    conCls.pointee = nil
    let state = Unmanaged<RequestState>.fromOpaque(raw).takeRetainedValue()
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    // The next request head's deadline starts now (a keep-alive connection stays open).
    let now = ConnectionGuard.now()
    state.watched?.enter(.idle, now: now)
    if let stream = state.stream, !state.streamHandedOver { stream.abandon() }
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

    fileprivate func handle(_ state: RequestState, _ connection: OpaquePointer) -> MHD_Result {
        state.watched?.enter(.answering)
        let client = state.watched?.client ?? Self.clientAddress(connection)
        var request = HTTPRequest(method: state.method, path: state.path, headers: state.headers,
                                  body: state.body, clientAddress: client)
        request.query = state.query
        state.client = ClientAddress.resolve(peer: client, forwardedFor: request.header("X-Forwarded-For"),
                                             trustedProxies: options.trustedProxies)
        state.body = []
        if let error = state.streamError {
            state.stream = nil
            return send(ErrorMiddleware.finished(.failure(error)), state, connection)
        }
        if let stream = state.stream {
            do {
                try stream.finish()
            } catch {
                stream.abandon()
                state.stream = nil
                return send(ErrorMiddleware.finished(.failure(error)), state, connection)
            }
            request.upload = stream
            state.streamHandedOver = true
        }
        if options.deferredMethods.contains(request.method) {
            // The responder may answer later from another thread (a save, once committed); the
            // connection is suspended meanwhile so this worker thread serves others.
            let handle = SuspendedConnection(pointer: connection)
            inFlight.enter()
            ErrorMiddleware(responder).respond(to: request) { [inFlight] response in
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
