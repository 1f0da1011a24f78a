import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// This machine's own network addresses, for telling a user where a server listening on every
/// interface (`0.0.0.0`, `::`) can be reached from a phone.
public enum NetworkAddresses {
    /// The addresses of interfaces that are up, loopback and IPv6 link-local left out (a phone
    /// cannot use them in a URL), IPv4 first, each once.
    public static func reachable() -> [String] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0, let start = first else { return [] }
        defer { freeifaddrs(start) }
        var v4: [String] = [], v6: [String] = []
        var cursor: UnsafeMutablePointer<ifaddrs>? = start
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            let flags = Int32(entry.pointee.ifa_flags)
            guard flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0, let address = entry.pointee.ifa_addr else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard getnameinfo(address, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            let text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if family == AF_INET {
                if !v4.contains(text) { v4.append(text) }
            } else if !text.lowercased().hasPrefix("fe80"), !text.contains("%"), !v6.contains(text) {
                v6.append(text)
            }
        }
        return v4 + v6
    }

    /// `http://ADDRESS:PORT`, with brackets around an IPv6 address.
    public static func url(_ address: String, port: UInt16) -> String {
        "http://\(address.contains(":") ? "[\(address)]" : address):\(port)"
    }
}
