import Foundation
import PiperCore
import PiperSystem

/// Collects a response body up to a limit. libcurl's write callback is its only writer, on the
/// thread running `perform()`; it is read after `perform()` returns. Not Sendable.
final class CurlBody: CurlReceiver {
    let limit: Int
    private(set) var data = Data()
    private(set) var overflowed = false
    /// Set when the first body bytes show a media Content-Type: the transfer is stopped there.
    private(set) var stoppedForMedia = false
    var stopOnMediaContentType = false
    private var sawFirstChunk = false

    init(limit: Int) {
        self.limit = limit
    }

    /// Returns false (libcurl then aborts with CURLE_WRITE_ERROR) past the limit or at media.
    func curlReceive(body bytes: UnsafeRawBufferPointer, from easy: CurlEasy) -> Bool {
        if !sawFirstChunk {
            sawFirstChunk = true
            if stopOnMediaContentType, let type = easy.contentType, MediaLinks.isMediaContentType(type) {
                stoppedForMedia = true
                return false
            }
        }
        guard data.count + bytes.count <= limit else {
            overflowed = true
            return false
        }
        data.append(contentsOf: bytes)
        return true
    }
}
