import CMicroHTTPD
import Foundation

/// Responses found from a request's path alone, before the request is parsed: a GET or HEAD of
/// a cached reader page. The server asks on the request's first callback, before it collects
/// headers or builds an `HTTPRequest`, and sends what it gets as it is: no router, no
/// middleware. nil sends the request the usual way.
///
/// A class, so the server calls it through one reference, copying nothing per request.
public protocol PreparedAnswers: AnyObject, Sendable {
    /// The response to a GET or HEAD of `path` (the URL's path bytes, without the query string)
    /// that depends on nothing else in the request, with every header it is sent with (what
    /// `ErrorMiddleware` would add, too).
    func preparedResponse(path: UnsafeBufferPointer<UInt8>) -> ReusableResponse?
}

extension HTTPServer {
    /// The request's state with its prepared response, when the request can take one: a GET
    /// or HEAD with no query and no body, a head within the limits, from a client that is no
    /// trusted proxy (whose `X-Forwarded-For` the log would read), and a path `prepared` knows.
    func preparedRequest(_ connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?) -> RequestState? {
        guard options.prepared != nil, let url, let method else { return nil }
        let verb: String
        if strcmp(method, "GET") == 0 { verb = "GET" } else if strcmp(method, "HEAD") == 0 { verb = "HEAD" } else { return nil }
        let length = strlen(url)
        guard length <= options.maxURLBytes else { return nil }
        let head = piper_mhd_plain_head_bytes(connection)
        guard head >= 0, head <= options.maxHeaderBytes else { return nil }
        let found = url.withMemoryRebound(to: UInt8.self, capacity: length) {
            options.prepared?.preparedResponse(path: UnsafeBufferPointer(start: $0, count: length))
        }
        guard let response = found, response.response.file == nil else { return nil }
        let watched = watchedConnection(connection)
        let client = watched?.client ?? Self.clientAddress(connection)
        guard options.trustedProxies.isEmpty || !options.trustedProxies.contains(client) else { return nil }
        let state = RequestState(method: verb, path: String(cString: url))
        state.watched = watched
        state.client = client
        state.stage = .prepared(response)
        guard watched?.enter(.answering) != false else { return nil }
        return state
    }
}
