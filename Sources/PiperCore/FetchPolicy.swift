import Foundation

/// A numeric IPv4 or IPv6 address as its bytes (4 or 16 of them).
public struct NetworkAddress: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The address's bytes in network order.
    public let bytes: [UInt8]

    /// Parses the dotted-quad IPv4 form or any RFC 4291 IPv6 text form (zone ids dropped).
    /// Nothing else: decimal or hex IPv4 spellings are names a resolver turns into addresses.
    public init?(_ text: String) {
        var text = text
        if text.hasPrefix("[") && text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if let zone = text.firstIndex(of: "%") { text = String(text[..<zone]) }
        if let v4 = Self.parseIPv4(text) { bytes = v4; return }
        guard let v6 = Self.parseIPv6(text) else { return nil }
        bytes = v6
    }

    /// An address from 4 (IPv4) or 16 (IPv6) bytes; nil for any other count.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// True for a 4-byte address.
    public var isIPv4: Bool { bytes.count == 4 }

    /// An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) as the IPv4 address it stands for.
    public var unmapped: NetworkAddress {
        guard bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF else { return self }
        return NetworkAddress(bytes: Array(bytes[12...])) ?? self
    }

    /// The usual text form (`192.0.2.1`, `2001:db8::1`).
    public var description: String {
        if isIPv4 { return bytes.map(String.init).joined(separator: ".") }
        var groups: [String] = []
        for index in stride(from: 0, to: 16, by: 2) { groups.append(String(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]), radix: 16)) }
        return groups.joined(separator: ":")
    }

    static func parseIPv4(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var out: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = UInt8(part) else { return nil }
            out.append(value)
        }
        return out
    }

    static func parseIPv6(_ text: String) -> [UInt8]? {
        guard text.contains(":") else { return nil }
        var text = Substring(text)
        var tail: [UInt8] = []
        if let lastColon = text.lastIndex(of: ":"), text[text.index(after: lastColon)...].contains(".") {
            guard let v4 = parseIPv4(String(text[text.index(after: lastColon)...])) else { return nil }
            tail = v4
            text = text[...lastColon]
            if text.hasSuffix(":") && !text.hasSuffix("::") { text = text.dropLast() }
        }
        func groups(_ part: Substring) -> [UInt16]? {
            if part.isEmpty { return [] }
            var out: [UInt16] = []
            for group in part.split(separator: ":", omittingEmptySubsequences: false) {
                guard !group.isEmpty, group.count <= 4, let value = UInt16(group, radix: 16) else { return nil }
                out.append(value)
            }
            return out
        }
        let needed = 8 - tail.count / 2
        var words: [UInt16]
        if let gap = text.range(of: "::") {
            guard let head = groups(text[..<gap.lowerBound]), let rest = groups(text[gap.upperBound...]),
                  head.count + rest.count < needed, !text[gap.upperBound...].contains("::") else { return nil }
            words = head + Array(repeating: 0, count: needed - head.count - rest.count) + rest
        } else {
            guard let all = groups(text), all.count == needed else { return nil }
            words = all
        }
        return words.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } + tail
    }
}

/// An address range in CIDR notation (`10.0.0.0/8`, `fd00::/8`, or one address).
public struct AddressRange: Sendable, Equatable, CustomStringConvertible {
    /// The range's first address.
    public let base: NetworkAddress
    /// The number of leading bits that must match.
    public let prefix: Int

    /// A range from CIDR text (an address alone is a one-address range); nil when malformed.
    public init?(_ text: String) {
        let pieces = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard let base = NetworkAddress(pieces[0]) else { return nil }
        let bits = base.bytes.count * 8
        let prefix = pieces.count == 2 ? Int(pieces[1]) : bits
        guard let prefix, (0...bits).contains(prefix) else { return nil }
        self.base = base
        self.prefix = prefix
    }

    /// True when `address` is in the range (never across address families).
    public func contains(_ address: NetworkAddress) -> Bool {
        let address = address.unmapped
        guard address.bytes.count == base.bytes.count else { return false }
        var left = prefix
        for (a, b) in zip(address.bytes, base.bytes) where left > 0 {
            let mask: UInt8 = left >= 8 ? 0xFF : ~(0xFF >> UInt8(left))
            if a & mask != b & mask { return false }
            left -= 8
        }
        return true
    }

    /// The CIDR text.
    public var description: String { "\(base)/\(prefix)" }
}

/// Which addresses a server may fetch from on a client's behalf (SSRF defence): everything
/// public, nothing on this machine, its networks or a cloud's metadata service, unless the
/// operator opens a range or a host (`piper serve --allow-host`).
public struct FetchPolicy: Sendable, Equatable {
    /// Ranges refused by default, each with the words a refusal uses.
    public static let refusedRanges: [(range: String, kind: String)] = [
        ("127.0.0.0/8", "loopback"), ("::1/128", "loopback"), ("0.0.0.0/8", "unspecified"), ("::/128", "unspecified"),
        ("10.0.0.0/8", "private"), ("172.16.0.0/12", "private"), ("192.168.0.0/16", "private"), ("fc00::/7", "private"),
        ("100.64.0.0/10", "shared (CGNAT)"), ("169.254.169.254/32", "cloud metadata"), ("fd00:ec2::254/128", "cloud metadata"),
        ("169.254.0.0/16", "link-local"), ("fe80::/10", "link-local"), ("224.0.0.0/4", "multicast"), ("ff00::/8", "multicast"),
        ("240.0.0.0/4", "reserved"), ("192.0.0.0/24", "reserved"), ("198.18.0.0/15", "benchmarking"),
        ("64:ff9b:1::/48", "private"), ("2001:db8::/32", "documentation"),
    ]
    private static let parsedRanges: [(AddressRange, String)] = refusedRanges.compactMap { entry in
        AddressRange(entry.range).map { ($0, entry.kind) }
    }

    /// Ranges the operator opened.
    public var allowedRanges: [AddressRange]
    /// Host names the operator opened (lowercased, no trailing dot): their addresses are allowed.
    public var allowedHosts: Set<String>

    /// A policy that opens `allowedRanges` and `allowedHosts` on top of the defaults.
    public init(allowedRanges: [AddressRange] = [], allowedHosts: Set<String> = []) {
        self.allowedRanges = allowedRanges
        self.allowedHosts = allowedHosts
    }

    /// `--allow-host` values: each a CIDR range, an address, or a host name.
    public init(allowing values: [String]) {
        var ranges: [AddressRange] = [], hosts = Set<String>()
        for value in values {
            if let range = AddressRange(value) { ranges.append(range) } else { hosts.insert(Self.normalized(value)) }
        }
        self.init(allowedRanges: ranges, allowedHosts: hosts)
    }

    /// What kind of refused address this is ("private", "loopback" …), or nil when it is public.
    public static func refusedKind(of address: NetworkAddress) -> String? {
        let address = address.unmapped
        return parsedRanges.first { $0.0.contains(address) }?.1
    }

    /// Why fetching from `address` is refused, or nil when it is allowed. `host` is the name it
    /// was resolved from, when known.
    public func refusal(of address: NetworkAddress, host: String? = nil) -> String? {
        guard let kind = Self.refusedKind(of: address) else { return nil }
        if allowedRanges.contains(where: { $0.contains(address) }) { return nil }
        if let host, allowedHosts.contains(Self.normalized(host)) { return nil }
        let named = host.map { NetworkAddress($0) == nil ? "\($0) (\(address))" : "\(address)" } ?? "\(address)"
        return "Refused to fetch from \(named): a \(kind) address (piper serve --allow-host opens it)"
    }

    static func normalized(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        return host
    }
}
