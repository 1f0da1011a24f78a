/// A request body consumed while it arrives instead of being collected in memory (a file upload
/// written straight to disk). Called on the connection's worker thread, in order.
public protocol BodyStream: AnyObject, Sendable {
    /// A refusal known from the headers alone (no credential, a declared size over the cap):
    /// answered before the client sends the body.
    var refusalBeforeBody: (any Error)? { get }
    /// The next bytes. Throwing (an `HTTPError`, e.g. 413) ends the upload with that answer.
    func write(_ bytes: UnsafeRawBufferPointer) throws
    /// The body is complete.
    func finish() throws
    /// The request ended without reaching its responder (client gone, refused): clean up.
    func abandon()
}

/// Picks the requests whose bodies stream: nil collects the body in memory as usual. It is
/// given the request's head (method, path, headers, the peer's address; no body yet).
public typealias BodyStreamFactory = @Sendable (_ head: HTTPRequest) -> (any BodyStream)?
