import Foundation

/// The origin a request was sent to: the scheme and host in the browser's address bar. A phone
/// reaches `piper serve` by whatever name it knows it by (a LAN name, `localhost`, a Tailscale
/// name, a public domain behind a TLS proxy), so this, not only the configured public URL, is
/// what "this site" means for a same-origin check.
///
/// From a trusted proxy (`--trusted-proxy`, the peer address): its `Forwarded` (RFC 7239) or
/// `X-Forwarded-Proto` / `X-Forwarded-Host`, else its `Host`. From anyone else: `http` (Piper
/// itself speaks no TLS) and the `Host` header; forwarding headers are ignored, as anyone can
/// send them.
enum RequestOrigin {
    static func of(_ request: HTTPRequest, trustedProxies: Set<String>) -> String? {
        var scheme = "http"
        var host = request.header("Host")
        if trustedProxies.contains(request.clientAddress) {
            if let forwarded = request.header("Forwarded").flatMap(firstForwardedElement) {
                scheme = forwarded["proto"] ?? scheme
                host = forwarded["host"] ?? host
            } else {
                scheme = request.header("X-Forwarded-Proto").flatMap(firstValue) ?? scheme
                host = request.header("X-Forwarded-Host").flatMap(firstValue) ?? host
            }
        }
        guard let host, !host.isEmpty, scheme == "http" || scheme == "https" else { return nil }
        return normalized("\(scheme)://\(host)")
    }

    /// `scheme://host[:port]`, lowercased, without the scheme's default port (as browsers send
    /// `Origin`), or the text lowercased when it is no URL.
    static func normalized(_ url: String) -> String {
        guard let parsed = URLComponents(string: url), let scheme = parsed.scheme?.lowercased(), let host = parsed.host?.lowercased() else {
            return url.lowercased()
        }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let port = parsed.port.flatMap { (scheme == "http" && $0 == 80) || (scheme == "https" && $0 == 443) ? nil : ":\($0)" } ?? ""
        return "\(scheme)://\(bracketed)\(port)"
    }

    /// True when a browser treats a page of this origin as a secure context: HTTPS, or a
    /// loopback host. Only there can a web app be installed and appear in a share sheet.
    static func isSecureContext(_ origin: String) -> Bool {
        guard let parsed = URLComponents(string: origin), let host = parsed.host?.lowercased() else { return false }
        if parsed.scheme?.lowercased() == "https" { return true }
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return bare == "localhost" || bare.hasSuffix(".localhost") || bare.hasPrefix("127.") || bare == "::1"
    }

    private static func firstValue(_ header: String) -> String? {
        header.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The first element of a `Forwarded` header (the proxy nearest the client): its pairs.
    private static func firstForwardedElement(_ header: String) -> [String: String]? {
        guard let element = header.split(separator: ",").first else { return nil }
        var pairs: [String: String] = [:]
        for pair in element.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            pairs[parts[0].lowercased()] = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()
        }
        return pairs.isEmpty ? nil : pairs
    }
}
