import Foundation

/// One browser cookie, as a Netscape `cookies.txt` line describes it.
public struct Cookie: Sendable, Equatable, Hashable {
    /// The domain as written, e.g. ".x.com" (a leading dot means subdomains too).
    public var domain: String
    /// True when subdomains of `domain` receive the cookie too.
    public var includeSubdomains: Bool
    /// The path prefix the cookie is sent for.
    public var path: String
    /// True when the cookie is sent over https only.
    public var secure: Bool
    /// True when scripts may not read the cookie (kept for writing the file back).
    public var httpOnly: Bool
    /// Expiry as a Unix time; nil for a session cookie (written as 0).
    public var expires: Date?
    /// The cookie's name.
    public var name: String
    /// The cookie's value (a secret: never printed).
    public var value: String

    /// A cookie with the given fields.
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

    /// True when the cookie has an expiry at or before `now` (session cookies never expire here).
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
    /// The domains whose cookies Piper keeps.
    public static let domains = ["x.com", "twitter.com"]

    /// True for `x.com`, `twitter.com` and their subdomains.
    public static func isXHost(_ host: String) -> Bool {
        let h = host.lowercased()
        return domains.contains { h == $0 || h.hasSuffix("." + $0) }
    }

    /// True when `url` is on an X/Twitter host.
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
