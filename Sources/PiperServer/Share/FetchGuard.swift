import Foundation
import PiperCore
import PiperSystem
#if canImport(Glibc)
import Glibc
#endif

/// The SSRF defence of everything `piper serve` fetches for a client: a `FetchPolicy` checked
/// (1) before a share starts, on every address the link's host resolves to, for a clear early
/// refusal, and (2) by libcurl's open-socket hook on the address each connection really uses,
/// every redirect hop included, so DNS answering differently the second time changes nothing.
///
/// (2) is `connectionGuard`, a value each fetcher the server builds carries (its page loader,
/// media finder, enqueue probe and the agent's downloader): nothing process-wide, so no fetcher
/// depends on the order things start in, and a fetcher built without it is never guarded.
public struct FetchGuard: Sendable {
    public let policy: FetchPolicy

    public init(policy: FetchPolicy) { self.policy = policy }

    /// The policy as libcurl's per-transfer connection check (`CurlRequest.connectionGuard`).
    public var connectionGuard: CurlConnectionGuard {
        let guardCopy = self
        return CurlConnectionGuard { address in guardCopy.refusal(ofNumeric: address) }
    }

    /// Why connecting to this numeric address is refused, or nil.
    public func refusal(ofNumeric text: String) -> String? {
        guard let address = NetworkAddress(text) else { return "Refused to fetch from \(text): not an IP address" }
        guard let refusal = policy.refusal(of: address) else { return nil }
        // An allowed host name opens the addresses it resolves to now.
        for host in policy.allowedHosts where Self.resolve(host).contains(address.unmapped) { return nil }
        return refusal
    }

    /// Refuses a link whose host resolves to a refused address (or does not resolve).
    public func preflight(_ url: URL) throws {
        guard let rawHost = url.host, !rawHost.isEmpty else { throw HTTPError(400, "The link has no host: \(url.absoluteString)") }
        let host = rawHost.hasPrefix("[") ? String(rawHost.dropFirst().dropLast()) : rawHost
        // An --allow-host name is open whatever it resolves to (the load reports a name that does not).
        if policy.allowedHosts.contains(host.lowercased()) { return }
        let addresses = NetworkAddress(host).map { [$0] } ?? Self.resolve(host)
        guard !addresses.isEmpty else { throw HTTPError(502, "Cannot resolve \(host)") }
        for address in addresses {
            if let refusal = policy.refusal(of: address, host: host) { throw HTTPError(403, refusal) }
        }
    }

    /// Every address `host` resolves to now (IPv4-mapped ones as IPv4).
    static func resolve(_ host: String) -> [NetworkAddress] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var found: [NetworkAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if let sa = entry.pointee.ai_addr {
                if sa.pointee.sa_family == sa_family_t(AF_INET) {
                    let bytes = sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) } }
                    if let address = NetworkAddress(bytes: bytes) { found.append(address) }
                } else if sa.pointee.sa_family == sa_family_t(AF_INET6) {
                    let bytes = sa.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) } }
                    if let address = NetworkAddress(bytes: bytes) { found.append(address.unmapped) }
                }
            }
            cursor = entry.pointee.ai_next
        }
        return found
    }
}
