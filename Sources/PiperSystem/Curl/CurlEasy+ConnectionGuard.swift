import CCurl
import Foundation

/// Decides, right before libcurl opens a socket, whether the address it resolved may be
/// connected to: nil allows it, a sentence refuses it. It sees the very address the socket
/// connects to (every redirect hop, every address a name resolved to), so no second lookup can
/// differ from the one checked.
public typealias CurlConnectionGuard = @Sendable (_ numericAddress: String) -> String?

/// The process-wide guard every new `CurlEasy` installs (`piper serve` sets one at startup, so
/// fetches made for clients cannot reach private addresses). Guarded by its lock.
final class ConnectionGuardSlot: @unchecked Sendable {
    static let shared = ConnectionGuardSlot()
    private let lock = NSLock()
    private var value: CurlConnectionGuard?

    var current: CurlConnectionGuard? {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

extension CurlEasy {
    /// Installs `check` for every handle created from now on in this process (nil removes it).
    /// Handles that refused a connection fail with `CURLE_REMOTE_ACCESS_DENIED` and the guard's
    /// sentence, which the downloader treats as final (no retries).
    public static func setConnectionGuard(_ check: CurlConnectionGuard?) {
        ConnectionGuardSlot.shared.current = check
    }

    /// Wires the open-socket callback when a guard is installed; called by `init`.
    func installConnectionGuard() throws {
        guard let check = ConnectionGuardSlot.shared.current else { return }
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
    if let check = easy.connectionGuard, let refusal = check(numeric) {
        easy.connectionRefusal = refusal
        return CURL_SOCKET_BAD
    }
    return piper_curl_open_socket(address)
}
