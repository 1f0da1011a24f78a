import Foundation

/// One browser cookie, as a Netscape `cookies.txt` line describes it.
public struct Cookie: Sendable, Equatable, Hashable {
    /// The domain as written, e.g. ".x.com" (a leading dot means subdomains too).
    public var domain: String
    public var includeSubdomains: Bool
    public var path: String
    public var secure: Bool
    public var httpOnly: Bool
    /// Expiry as a Unix time; nil for a session cookie (written as 0).
    public var expires: Date?
    public var name: String
    public var value: String

    public init(domain: String, includeSubdomains: Bool = true, path: String = "/", secure: Bool = true,
                httpOnly: Bool = false, expires: Date? = nil, name: String, value: String) {
        self.domain = domain
        self.includeSubdomains = includeSubdomains
        self.path = path
        self.secure = secure
        self.httpOnly = httpOnly
        self.expires = expires
        self.name = name
        self.value = value
    }

    /// The domain without its leading dot, lowercased.
    public var host: String {
        let lower = domain.lowercased()
        return lower.hasPrefix(".") ? String(lower.dropFirst()) : lower
    }

    public func isExpired(at now: Date) -> Bool {
        guard let expires else { return false }
        return expires <= now
    }

    /// True when a request to `host` should carry this cookie (RFC 6265 domain matching).
    public func matches(host requestHost: String) -> Bool {
        let h = requestHost.lowercased()
        if h == host { return true }
        return includeSubdomains && h.hasSuffix("." + host)
    }

    /// True for X/Twitter cookies: x.com, twitter.com and their subdomains.
    public var isXCookie: Bool { XLinks.isXHost(host) }
}

/// Which hosts are X/Twitter.
public enum XLinks {
    public static let domains = ["x.com", "twitter.com"]

    public static func isXHost(_ host: String) -> Bool {
        let h = host.lowercased()
        return domains.contains { h == $0 || h.hasSuffix("." + $0) }
    }

    public static func isXLink(_ url: URL) -> Bool {
        url.host.map(isXHost) ?? false
    }

    /// The same link on the other X domain (x.com ⇄ twitter.com), for a navigation retry.
    public static func alternate(_ url: URL) -> URL? {
        guard var comps = URLComponents(url: url, resolvingAgainstBaseURL: false), let host = comps.host?.lowercased() else {
            return nil
        }
        if host == "x.com" || host.hasSuffix(".x.com") {
            comps.host = String(host.dropLast("x.com".count)) + "twitter.com"
        } else if host == "twitter.com" || host.hasSuffix(".twitter.com") {
            comps.host = String(host.dropLast("twitter.com".count)) + "x.com"
        } else {
            return nil
        }
        return comps.url
    }
}
