import CCurl
import Foundation

/// One libcurl easy handle for one transfer. `init` creates the handle, `deinit` frees it and the
/// header list. Not Sendable: one thread drives it from setup to `perform()` and is then done.
final class CurlEasy {
    private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_ALL))

    let handle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// libcurl writes detailed messages here; allocated by `init`, freed by `deinit`.
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    let body: CurlBody

    /// `limit`: bytes of body kept before the transfer is aborted as too large.
    init(url: URL, limit: Int) throws {
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        guard Self.globalInit == CURLE_OK, let h = curl_easy_init() else {
            errorBuffer.deallocate()
            throw CurlFailure(code: CURLE_FAILED_INIT, message: "libcurl could not start")
        }
        handle = h
        body = CurlBody(limit: limit, handle: h)
        try set(CURLOPT_URL, url.absoluteString)
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        // Loopback never goes through a proxy, whatever the environment says.
        try set(CURLOPT_NOPROXY, "localhost,127.0.0.1,::1")
        try check(piper_curl_setopt_datacb(h, CURLOPT_WRITEFUNCTION, curlWriteBody))
        try check(piper_curl_setopt_pointer(h, CURLOPT_WRITEDATA, Unmanaged.passUnretained(body).toOpaque()))
        try check(piper_curl_setopt_pointer(h, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorBuffer)))
    }

    deinit {
        curl_easy_cleanup(handle)
        if let headerList { curl_slist_free_all(headerList) }
        errorBuffer.deallocate()
    }

    func set(_ option: CURLoption, _ value: Int) throws {
        try check(piper_curl_setopt_long(handle, option, value))
    }

    /// libcurl copies string options (all but POSTFIELDS; use COPYPOSTFIELDS for bodies).
    func set(_ option: CURLoption, _ value: String) throws {
        try check(piper_curl_setopt_string(handle, option, value))
    }

    func addHeader(_ line: String) throws {
        guard let list = curl_slist_append(headerList, line) else {
            throw CurlFailure(code: CURLE_OUT_OF_MEMORY, message: "out of memory")
        }
        headerList = list
        try check(piper_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, list))
    }

    /// Runs the transfer. Returns libcurl's result code; the body is in `body`.
    func perform() -> CURLcode {
        curl_easy_perform(handle)
    }

    var responseCode: Int {
        var code = 0
        _ = piper_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    /// The response's `Retry-After` in seconds (libcurl reads both forms); nil when absent.
    var retryAfter: Int? {
        var seconds: curl_off_t = 0
        guard piper_curl_getinfo_off(handle, CURLINFO_RETRY_AFTER, &seconds) == CURLE_OK, seconds > 0 else { return nil }
        return Int(seconds)
    }

    var contentType: String? {
        var ptr: UnsafeMutablePointer<CChar>?
        guard piper_curl_getinfo_string(handle, CURLINFO_CONTENT_TYPE, &ptr) == CURLE_OK, let ptr else { return nil }
        return String(cString: ptr)
    }

    var effectiveURL: URL? {
        var ptr: UnsafeMutablePointer<CChar>?
        guard piper_curl_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &ptr) == CURLE_OK, let ptr else { return nil }
        return URL(string: String(cString: ptr))
    }

    /// The detailed message libcurl left in the error buffer, else the code's generic text.
    func message(for code: CURLcode) -> String {
        let detail = String(cString: errorBuffer)
        return detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
    }

    private func check(_ code: CURLcode) throws {
        guard code == CURLE_OK else { throw CurlFailure(code: code, message: String(cString: curl_easy_strerror(code))) }
    }
}

/// A libcurl failure as a Swift value.
struct CurlFailure: Error, CustomStringConvertible {
    let code: CURLcode
    let message: String
    var description: String { message }

    var isTimeout: Bool { code == CURLE_OPERATION_TIMEDOUT }
    var isUnreachable: Bool {
        [CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT, CURLE_SSL_CONNECT_ERROR,
         CURLE_PEER_FAILED_VERIFICATION, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING].contains(code)
    }
}
