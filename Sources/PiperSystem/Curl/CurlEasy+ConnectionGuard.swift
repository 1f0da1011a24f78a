import CCurl
import Foundation

extension CurlEasy {
    /// Wires libcurl's open-socket callback to `check` for this handle only: the request's own
    /// guard (`CurlRequest.connectionGuard`), never a process-wide one, so whether a transfer is
    /// guarded depends on the fetcher that made it, not on what else ran first in the process.
    func install(_ check: CurlConnectionGuard) throws {
        connectionGuard = check
        let me = Unmanaged.passUnretained(self).toOpaque()
        try applyOption(piper_curl_setopt_opensocket(handleForExtensions, piperCurlOpenSocket))
        try applyOption(piper_curl_setopt_pointer(handleForExtensions, CURLOPT_OPENSOCKETDATA, me))
    }

    /// The guard's refusal as the transfer's error, when the guard refused a connection.
    func refusalError() -> CurlError? {
        guard let refusal = connectionRefusal else { return nil }
        return CurlError(CURLE_REMOTE_ACCESS_DENIED, detail: refusal)
    }
}

/// libcurl's open-socket callback: checks the address, then opens the socket libcurl asked for.
func piperCurlOpenSocket(_ clientp: UnsafeMutableRawPointer?, _ purpose: curlsocktype,
                         _ address: UnsafeMutablePointer<curl_sockaddr>?) -> curl_socket_t {
    guard let clientp, let address else { return CURL_SOCKET_BAD }
    let easy = Unmanaged<CurlEasy>.fromOpaque(clientp).takeUnretainedValue()
    var text = [CChar](repeating: 0, count: 64)
    guard piper_curl_sockaddr_text(address, &text, UInt32(text.count)) == 0 else {
        easy.connectionRefusal = "Refused to connect: not an IP address"
        return CURL_SOCKET_BAD
    }
    let numeric = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    if let check = easy.connectionGuard, let refusal = check.refusal(of: numeric) {
        easy.connectionRefusal = refusal
        return CURL_SOCKET_BAD
    }
    return piper_curl_open_socket(address)
}
