import CCurl

/// A failed libcurl call as a Swift value: its code and libcurl's sentence for it. The one
/// error type of every libcurl user in Piper; it answers both questions they ask of a failure
/// (`isRetryable` for the downloader, `isUnreachable` for the article loader and save client).
package struct CurlError: Error, CustomStringConvertible, Equatable, Sendable {
    /// libcurl's result code (never `CURLE_OK`).
    package let code: CURLcode
    /// The detailed message libcurl left in the handle's error buffer (CURLOPT_ERRORBUFFER)
    /// when there is one, else the code's generic text (`curl_easy_strerror`).
    package let message: String

    /// `detail`: the error buffer's text, empty when libcurl left none.
    package init(_ code: CURLcode, detail: String = "") {
        self.code = code
        message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
    }

    /// The sentence a user sees: libcurl's detailed message.
    package var description: String { message }

    /// The transfer ran past CURLOPT_TIMEOUT(_MS), or below the stall limit
    /// (CURLOPT_LOW_SPEED_LIMIT for CURLOPT_LOW_SPEED_TIME).
    package var isTimeout: Bool { code == CURLE_OPERATION_TIMEDOUT }

    /// Transient network trouble worth another attempt: timeouts (the stall limit included),
    /// resets, refused connections, short bodies, empty replies, resolve failures, HTTP/2
    /// errors and failed TLS handshakes.
    package var isRetryable: Bool { Self.retryable.contains(code) }

    /// The server could not be reached or answered nothing usable: what the article loader
    /// reports as "unreachable".
    package var isUnreachable: Bool { Self.unreachable.contains(code) }

    /// A callback refused data (a write callback returned a short count, or a transfer was
    /// aborted by one): the receiver's own reason, not the network's, says why.
    package var isWriteAbort: Bool { code == CURLE_WRITE_ERROR || code == CURLE_ABORTED_BY_CALLBACK }

    private static let retryable: [CURLcode] = [
        CURLE_OPERATION_TIMEDOUT, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_COULDNT_CONNECT,
        CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY,
        CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_SSL_CONNECT_ERROR,
    ]
    private static let unreachable: [CURLcode] = [
        CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT, CURLE_SSL_CONNECT_ERROR,
        CURLE_PEER_FAILED_VERIFICATION, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING,
    ]
}
