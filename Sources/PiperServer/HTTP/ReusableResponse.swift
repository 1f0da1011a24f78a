import CMicroHTTPD
import Foundation

/// libmicrohttpd's response object for an `HTTPResponse` sent many times unchanged (a cached
/// reader page): built on its first send, then queued as is for every later request, so a hit
/// copies no body and adds no headers. libmicrohttpd counts the object's references and locks
/// them itself, so one object may be queued on several connections at once; it is destroyed
/// once the last connection sending it is done and this owner is gone.
///
/// The `HTTPResponse` that carries it must not change afterwards (`ErrorMiddleware` leaves a
/// response with all its headers as it is).
/// `@unchecked Sendable`: `built` is only touched while holding `lock`.
public final class ReusableResponse: @unchecked Sendable {
    private let lock = NSLock()
    private var built: OpaquePointer?

    public init() {}

    deinit {
        if let built { MHD_destroy_response(built) }
    }

    /// The object, made by `make` the first time.
    func handle(_ make: () -> OpaquePointer?) -> OpaquePointer? {
        lock.withLock {
            if built == nil { built = make() }
            return built
        }
    }
}
