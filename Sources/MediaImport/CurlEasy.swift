import CCurl
import Foundation

/// libcurl's process-wide setup, done once before the first handle is created.
enum CurlGlobal {
    static let ready: Bool = curl_global_init(Int(CURL_GLOBAL_SSL | CURL_GLOBAL_WIN32)) == CURLE_OK
}

/// A libcurl error code as a Swift value, with libcurl's own sentence for it.
struct CurlCode: Error, CustomStringConvertible, Equatable, Sendable {
    let raw: UInt32
    init(_ code: CURLcode) { raw = code.rawValue }

    var isOK: Bool { raw == CURLE_OK.rawValue }
    /// Transient network trouble worth another attempt: timeouts (including the stall limit),
    /// resets, refused connections, short bodies, empty replies.
    var isTransient: Bool {
        let transient: [CURLcode] = [
            CURLE_OPERATION_TIMEDOUT, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_COULDNT_CONNECT,
            CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING, CURLE_COULDNT_RESOLVE_HOST, CURLE_HTTP2,
            CURLE_HTTP2_STREAM, CURLE_SSL_CONNECT_ERROR,
        ]
        return transient.contains { $0.rawValue == raw }
    }
    var isWriteAbort: Bool { raw == CURLE_WRITE_ERROR.rawValue || raw == CURLE_ABORTED_BY_CALLBACK.rawValue }
    var description: String { String(cString: curl_easy_strerror(CURLcode(rawValue: raw))) }
}

/// One libcurl easy handle. The class owns it for its whole life: `init` creates it, `deinit`
/// frees it together with the header list it was given.
///
/// Not Sendable: a handle is used by one thread at a time (the download worker that made it).
final class CurlEasy {
    let handle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?

    init() throws {
        guard CurlGlobal.ready, let handle = curl_easy_init() else { throw DownloadError.curlUnavailable }
        self.handle = handle
    }

    deinit {
        if let headerList { curl_slist_free_all(headerList) }
        curl_easy_cleanup(handle)
    }

    func set(_ option: CURLoption, _ value: Int) { _ = piper_curl_setopt_long(handle, option, value) }
    func set(_ option: CURLoption, _ value: String) { _ = piper_curl_setopt_string(handle, option, value) }
    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) { _ = piper_curl_setopt_pointer(handle, option, pointer) }
    func set(_ option: CURLoption, data callback: piper_curl_data_cb) { _ = piper_curl_setopt_datacb(handle, option, callback) }

    /// Replaces the request's extra headers ("Name: value" lines).
    func setHeaders(_ lines: [String]) {
        if let headerList { curl_slist_free_all(headerList) }
        headerList = nil
        for line in lines { headerList = curl_slist_append(headerList, line) }
        _ = piper_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList)
    }

    func perform() -> CurlCode { CurlCode(curl_easy_perform(handle)) }

    var responseCode: Int {
        var code = 0
        _ = piper_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    var effectiveURL: String? {
        var p: UnsafeMutablePointer<CChar>?
        _ = piper_curl_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &p)
        return p.map { String(cString: $0) }
    }
}
