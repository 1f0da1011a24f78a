import CMicroHTTPD
import Foundation
import Glibc

/// A byte range of an open file, sent as a response body by libmicrohttpd straight from the
/// descriptor (sendfile on plain connections): nothing is copied through our memory.
///
/// The descriptor is owned here until `makeResponse` hands it to libmicrohttpd, which closes it
/// when the response is destroyed; a response never sent closes it on deinit.
/// `@unchecked Sendable`: `descriptor` is only touched while holding `lock`.
public final class ResponseFile: @unchecked Sendable {
    public let offset: Int64
    public let length: Int64
    private let lock = NSLock()
    private var descriptor: Int32

    /// Takes ownership of `descriptor`.
    public init(descriptor: Int32, offset: Int64, length: Int64) {
        self.descriptor = descriptor
        self.offset = offset
        self.length = length
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The libmicrohttpd response over the descriptor (which it now owns), or nil once taken.
    func makeResponse() -> OpaquePointer? {
        let fd: Int32 = lock.withLock {
            let fd = descriptor
            descriptor = -1
            return fd
        }
        guard fd >= 0 else { return nil }
        guard let response = MHD_create_response_from_fd_at_offset64(UInt64(length), fd, UInt64(offset)) else {
            close(fd)
            return nil
        }
        return response
    }
}
