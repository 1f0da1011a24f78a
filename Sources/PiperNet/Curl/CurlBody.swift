import CCurl
import Foundation
import PiperCore

/// Collects a response body up to a limit. libcurl's write callback is its only writer, on the
/// thread running `perform()`; it is read after `perform()` returns. Not Sendable.
final class CurlBody {
    let limit: Int
    private(set) var data = Data()
    private(set) var overflowed = false
    /// Set when the first body bytes show a media Content-Type: the transfer is stopped there.
    private(set) var stoppedForMedia = false
    var stopOnMediaContentType = false
    private var sawFirstChunk = false
    private let handle: UnsafeMutableRawPointer

    init(limit: Int, handle: UnsafeMutableRawPointer) {
        self.limit = limit
        self.handle = handle
    }

    /// Returns the number of bytes taken; anything else makes libcurl abort with CURLE_WRITE_ERROR.
    func append(_ bytes: UnsafeRawBufferPointer) -> Int {
        if !sawFirstChunk {
            sawFirstChunk = true
            if stopOnMediaContentType {
                var ptr: UnsafeMutablePointer<CChar>?
                if piper_curl_getinfo_string(handle, CURLINFO_CONTENT_TYPE, &ptr) == CURLE_OK, let ptr,
                   MediaLinks.isMediaContentType(String(cString: ptr)) {
                    stoppedForMedia = true
                    return 0
                }
            }
        }
        guard data.count + bytes.count <= limit else {
            overflowed = true
            return 0
        }
        data.append(contentsOf: bytes)
        return bytes.count
    }
}

/// libcurl's write callback: a plain global function (never a `main.swift` closure).
func curlWriteBody(_ ptr: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userdata: UnsafeMutableRawPointer?) -> Int {
    guard let userdata else { return 0 }
    let body = Unmanaged<CurlBody>.fromOpaque(userdata).takeUnretainedValue()
    let total = size * count
    guard total > 0, let ptr else { return total }
    return body.append(UnsafeRawBufferPointer(start: ptr, count: total))
}
