import Foundation

/// The one rule for "is this a web link": an `http` or `https` scheme (in any case) and a
/// non-empty host. Every place that takes or checks a link asks here.
public enum WebURL {
    /// `text` as a URL when it is an http(s) link with a host, else nil.
    public static func http(_ text: String) -> URL? {
        guard let components = URLComponents(string: text), isWeb(scheme: components.scheme),
              let host = components.host, !host.isEmpty, let url = components.url else { return nil }
        return url
    }

    /// True when `url` is an http(s) link with a host.
    public static func isWeb(_ url: URL) -> Bool {
        guard isWeb(scheme: url.scheme), let host = url.host, !host.isEmpty else { return false }
        return true
    }

    static func isWeb(scheme: String?) -> Bool {
        guard let scheme else { return false }
        return scheme.caseInsensitiveCompare("http") == .orderedSame || scheme.caseInsensitiveCompare("https") == .orderedSame
    }
}
