import CCurl
import Foundation

/// One libcurl easy handle for one transfer. `init` creates the handle with Piper's defaults
/// and the request's options (`CurlRequest`, applied in `CurlEasy+Request`); `deinit` frees it,
/// its header list and its error buffer.
///
/// Defaults every transfer gets: http and https only (redirects too), no signals (worker
/// threads), loopback never through a proxy, libcurl's detailed messages kept (CURLOPT_ERRORBUFFER)
/// for every `CurlError`, and the body and header callbacks wired to `receiver`.
///
/// The option setters are internal: code above PiperSystem describes a request and never sets
/// a libcurl option itself.
///
/// Not Sendable: one thread sets it up, runs `perform()` and reads the result.
public final class CurlEasy {
    /// libcurl's process-wide setup, done once before the first handle.
    private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_ALL))

    /// Opens libcurl and runs its setup on a thread of its own, for a command that will make a
    /// transfer soon: the few milliseconds the dynamic loader takes over libcurl and its ~30
    /// libraries then pass while the command reads its settings. The first handle waits for
    /// whatever is left (the loader's lock, `globalInit`'s once); a library that cannot be
    /// loaded is reported by that handle, as without this. A caller that preloads calls
    /// `waitForPreload` before the process exits. A second call does nothing.
    public static func preload() {
        _ = preloadStarted
    }

    private static let preloadStarted: Void = {
        DispatchQueue(label: "piper.curl-preload").async(group: preloading) {
            if piper_curl_load() == nil { _ = globalInit }
        }
    }()

    /// Returns once a `preload` has finished. Exiting while it runs would run the exit handlers
    /// of the libraries it is setting up (OpenSSL's cleanup, from libcurl's dependencies) under
    /// it: a crash.
    public static func waitForPreload() {
        preloading.wait()
    }

    private static let preloading = DispatchGroup()
    /// Hosts no request sends through a proxy, whatever `http_proxy`/`https_proxy` say: a
    /// server on this machine is never behind the user's proxy.
    package static let loopbackHosts = "localhost,127.0.0.1,::1"

    private let handle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// libcurl writes detailed messages here; allocated by `init`, freed by `deinit`.
    private let errorBuffer: UnsafeMutablePointer<CChar>
    /// Gets the body and the header lines during `perform()`; nil discards the body.
    package var receiver: (any CurlReceiver)?
    /// The request's connection guard, checked by the open-socket callback (`CurlEasy+ConnectionGuard`).
    var connectionGuard: CurlConnectionGuard?
    /// Set by the open-socket callback when the guard refused an address.
    var connectionRefusal: String?
    var handleForExtensions: UnsafeMutableRawPointer { handle }

    /// A plain GET of `url` with the defaults above.
    package convenience init(url: URL) throws {
        try self.init(CurlRequest(url: url))
    }

    /// A handle for `request` with the defaults above. Throws when libcurl cannot be loaded (it
    /// is opened on first use, `CCurl`), cannot start or refuses a default or an option.
    package init(_ request: CurlRequest) throws {
        if let failure = piper_curl_load() {
            throw CurlError(CURLE_FAILED_INIT, detail: String(cString: failure))
        }
        guard Self.globalInit == CURLE_OK, let h = curl_easy_init() else {
            throw CurlError(CURLE_FAILED_INIT, detail: "libcurl could not start")
        }
        handle = h
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let me = Unmanaged.passUnretained(self).toOpaque()
        try check(piper_curl_setopt_pointer(h, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorBuffer)))
        try check(piper_curl_setopt_datacb(h, CURLOPT_WRITEFUNCTION, piperCurlWrite))
        try check(piper_curl_setopt_pointer(h, CURLOPT_WRITEDATA, me))
        try check(piper_curl_setopt_datacb(h, CURLOPT_HEADERFUNCTION, piperCurlHeader))
        try check(piper_curl_setopt_pointer(h, CURLOPT_HEADERDATA, me))
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_NOPROXY, Self.loopbackHosts)
        try apply(request)
    }

    deinit {
        curl_easy_cleanup(handle)
        if let headerList { curl_slist_free_all(headerList) }
        errorBuffer.deallocate()
    }

    /// Sets a `long` option; throws the `CurlError` libcurl answers with.
    func set(_ option: CURLoption, _ value: Int) throws {
        try check(piper_curl_setopt_long(handle, option, value))
    }

    /// Sets a string option; libcurl copies it (all but CURLOPT_POSTFIELDS: use
    /// CURLOPT_COPYPOSTFIELDS for bodies). Throws the `CurlError` libcurl answers with.
    func set(_ option: CURLoption, _ value: String) throws {
        try check(piper_curl_setopt_string(handle, option, value))
    }

    /// Replaces the request's extra headers ("Name: value" lines; "Name:" removes one).
    func setHeaders(_ lines: [String]) throws {
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines {
            guard let longer = curl_slist_append(list, line) else {
                if let list { curl_slist_free_all(list) }
                throw CurlError(CURLE_OUT_OF_MEMORY)
            }
            list = longer
        }
        let code = piper_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, list)
        if let headerList { curl_slist_free_all(headerList) }
        headerList = list
        try check(code)
    }

    /// Runs the transfer, feeding `receiver`. Returns nil on success, else the failure with
    /// libcurl's detailed message.
    package func perform() -> CurlError? {
        errorBuffer[0] = 0
        connectionRefusal = nil
        let code = curl_easy_perform(handle)
        defer { errorBuffer[0] = 0 }   // so a later setter's error never shows this message
        if code != CURLE_OK, let refused = refusalError() { return refused }
        return code == CURLE_OK ? nil : CurlError(code, detail: String(cString: errorBuffer))
    }

    /// The last response's HTTP status (0 before one arrived).
    package var responseCode: Int {
        var code = 0
        _ = piper_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    /// The last response's `Retry-After` in seconds (libcurl reads both forms); nil when absent.
    package var retryAfter: Int? {
        var seconds: curl_off_t = 0
        guard piper_curl_getinfo_off(handle, CURLINFO_RETRY_AFTER, &seconds) == CURLE_OK, seconds > 0 else { return nil }
        return Int(seconds)
    }

    /// The body bytes the last transfer received on the wire (before any content decoding).
    package var downloadedBytes: Int {
        var bytes: curl_off_t = 0
        guard piper_curl_getinfo_off(handle, CURLINFO_SIZE_DOWNLOAD_T, &bytes) == CURLE_OK else { return 0 }
        return Int(bytes)
    }

    /// The last response's Content-Type, once its headers arrived.
    package var contentType: String? { info(CURLINFO_CONTENT_TYPE) }

    /// The URL the transfer ended at, after redirects.
    package var effectiveURL: URL? { info(CURLINFO_EFFECTIVE_URL).flatMap(URL.init(string:)) }

    private func info(_ item: CURLINFO) -> String? {
        var ptr: UnsafeMutablePointer<CChar>?
        guard piper_curl_getinfo_string(handle, item, &ptr) == CURLE_OK, let ptr else { return nil }
        return String(cString: ptr)
    }

    func applyOption(_ code: CURLcode) throws { try check(code) }

    private func check(_ code: CURLcode) throws {
        guard code == CURLE_OK else { throw CurlError(code, detail: String(cString: errorBuffer)) }
    }
}
