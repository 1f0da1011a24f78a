import CMicroHTTPD
import Foundation
import Synchronization

/// An `HTTPResponse` sent many times unchanged (a cached reader page), with the libmicrohttpd
/// object built from it on its first send and then queued as is for every later request, so a
/// hit copies no body and adds no headers. libmicrohttpd counts the object's references and
/// locks them itself, so one object may be queued on several connections at once; it is
/// destroyed once the last connection sending it is done and this owner is gone.
///
/// The object is published with one compare-and-exchange: a hit reads it with one atomic load,
/// no lock. Two first sends racing both build one; the loser destroys its own.
public final class ReusableResponse: Sendable {
    /// The response as it is sent. Its own `reusable` is nil (no cycle); `sendable` sets it.
    let response: HTTPResponse
    private let built = Atomic<UInt>(0)

    public init(_ response: HTTPResponse) {
        var response = response
        response.reusable = nil
        self.response = response
    }

    deinit {
        let object = built.load(ordering: .acquiring)
        if object != 0, let pointer = OpaquePointer(bitPattern: object) { MHD_destroy_response(pointer) }
    }

    /// The response to hand to the server: `response` carrying this object.
    var sendable: HTTPResponse {
        var response = response
        response.reusable = self
        return response
    }

    /// The libmicrohttpd object, made by `make` the first time.
    func handle(_ make: (HTTPResponse) -> OpaquePointer?) -> OpaquePointer? {
        let existing = built.load(ordering: .acquiring)
        if existing != 0 { return OpaquePointer(bitPattern: existing) }
        guard let made = make(response) else { return nil }
        let bits = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(made)))
        let (exchanged, original) = built.compareExchange(expected: 0, desired: bits, ordering: .acquiringAndReleasing)
        if exchanged { return made }
        MHD_destroy_response(made)
        return OpaquePointer(bitPattern: original)
    }
}
