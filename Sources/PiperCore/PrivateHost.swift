import Foundation

/// Whether a host can only be reached from this machine or its local network: loopback,
/// `localhost`, RFC 1918 and other private, link-local or shared IPv4 ranges, IPv6 loopback,
/// unique-local and link-local addresses, and `.local`/`.internal` names. A link on such a host
/// cannot be fetched by a service on the internet (Instapaper).
package enum PrivateHost {
    /// Which kind of private address or name a host is.
    package enum Kind: String, Sendable, Equatable {
        case loopback
        case privateNetwork = "private"
    }

    /// The kind of a non-public host, or nil when it may be public.
    package static func kind(of rawHost: String) -> Kind? {
        var host = rawHost.lowercased()
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        if host == "localhost" || host.hasSuffix(".localhost") { return .loopback }
        if host.hasSuffix(".local") || host.hasSuffix(".internal") || host.hasSuffix(".lan") || host.hasSuffix(".home.arpa") {
            return .privateNetwork
        }
        if let v4 = ipv4(host) { return kind(v4) }
        if host.contains(":") { return kindIPv6(host) }
        return nil
    }

    private static func ipv4(_ host: String) -> [Int]? {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        let octets = parts.compactMap { part -> Int? in
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII), let value = Int(part), value <= 255 else { return nil }
            return value
        }
        return octets.count == 4 ? octets : nil
    }

    private static func kind(_ o: [Int]) -> Kind? {
        switch (o[0], o[1]) {
        case (127, _): return .loopback
        case (0, _), (10, _), (169, 254), (192, 168): return .privateNetwork
        case (172, 16...31), (100, 64...127): return .privateNetwork
        default: return nil
        }
    }

    private static func kindIPv6(_ host: String) -> Kind? {
        let address = host.split(separator: "%").first.map(String.init) ?? host     // zone id
        if address == "::1" || address == "::" { return .loopback }
        if address.hasPrefix("::ffff:"), let v4 = ipv4(String(address.dropFirst(7))) { return kind(v4) }
        guard let first = address.split(separator: ":", omittingEmptySubsequences: false).first,
              let group = UInt16(first, radix: 16) else { return nil }
        if group & 0xFE00 == 0xFC00 { return .privateNetwork }   // fc00::/7 unique local
        if group & 0xFFC0 == 0xFE80 { return .privateNetwork }   // fe80::/10 link local
        return nil
    }
}
