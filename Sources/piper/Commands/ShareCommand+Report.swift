import Foundation
import PiperCore

/// Wording for saved articles: until when the link works, and a warning when it points
/// somewhere Instapaper cannot reach.
extension ShareOutcome {
    /// The warning for a reader link on a loopback or private host, else nil.
    static func reachabilityWarning(_ url: URL) -> String? {
        guard let host = url.host, let kind = PrivateHost.kind(of: host) else { return nil }
        let what = kind == .loopback ? "a loopback address" : "a private address"
        return "Warning: \(host) is \(what); Instapaper cannot fetch this link. "
            + "Point --backend (or PIPER_BACKEND_URL) at a public server, or start it with --public-url."
    }

    /// `14:32` in the local time zone, with the date in front when it is not today.
    static func localTime(_ date: Date, now: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone.current
        formatter.dateFormat = Calendar.current.isDate(date, inSameDayAs: now) ? "HH:mm" : "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
