import Foundation

/// The user's X/Twitter cookies: a pure value. The file behind it is the `CookieStore` port.
public struct CookieJar: Sendable, Equatable {
    /// The cookies, in the order they were added.
    public private(set) var cookies: [Cookie]

    /// A jar holding `cookies`.
    public init(_ cookies: [Cookie] = []) {
        self.cookies = cookies.filter(\.isXCookie)
    }

    /// The cookies still valid at `now`.
    public func live(at now: Date) -> [Cookie] {
        cookies.filter { !$0.isExpired(at: now) }
    }

    /// Connected means at least one unexpired X cookie.
    public func isConnected(at now: Date) -> Bool {
        !live(at: now).isEmpty
    }

    /// The earliest expiry among the live cookies (nil when they are all session cookies).
    public func earliestExpiry(at now: Date) -> Date? {
        live(at: now).compactMap(\.expires).min()
    }

    /// The cookies a request to `host` carries.
    public func cookies(for host: String, at now: Date) -> [Cookie] {
        live(at: now).filter { $0.matches(host: host) }
    }
}

/// The outcome of `piper login --cookies FILE`: which cookies were kept and why others were not.
public struct CookieImport: Sendable, Equatable {
    /// The X/Twitter cookies kept.
    public var jar: CookieJar
    /// How many cookies the file held.
    public var total: Int
    /// How many were dropped for another site.
    public var droppedNonX: Int
    /// How many were dropped as expired.
    public var droppedExpired: Int

    /// Parses `text` (a Netscape cookies file) and keeps only the live X/Twitter cookies.
    /// Throws when the file is malformed, holds no X cookie, or all of them have expired.
    public static func make(from text: String, path: String, now: Date) throws -> CookieImport {
        let all = try NetscapeCookies.parse(text)
        let x = all.filter(\.isXCookie)
        guard !x.isEmpty else { throw CookieFileError.noXCookies(path) }
        let live = x.filter { !$0.isExpired(at: now) }
        guard !live.isEmpty else { throw CookieFileError.allExpired(path, x.count) }
        // X signs a logged-in request with both: the session (auth_token) and its CSRF token (ct0).
        let names = Set(x.map(\.name))
        if names.contains("auth_token") != names.contains("ct0") {
            throw CookieFileError.missingLoginCookie(path, names.contains("ct0") ? "auth_token" : "ct0")
        }
        return CookieImport(jar: CookieJar(live), total: all.count, droppedNonX: all.count - x.count,
                            droppedExpired: x.count - live.count)
    }

    /// The sentence `piper login` prints.
    public func summary(at now: Date) -> String {
        let n = jar.cookies.count
        var text = "Connected your X account: kept \(n) X/Twitter cookie\(n == 1 ? "" : "s")"
        var dropped: [String] = []
        if droppedNonX > 0 { dropped.append("\(droppedNonX) for other sites") }
        if droppedExpired > 0 { dropped.append("\(droppedExpired) expired") }
        if !dropped.isEmpty { text += " (dropped \(dropped.joined(separator: ", ")))" }
        if let first = jar.earliestExpiry(at: now) {
            text += "; they expire from \(Self.format(first))"
        } else {
            text += "; they are session cookies"
        }
        return text + "."
    }

    static func format(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return f.string(from: date)
    }
}
