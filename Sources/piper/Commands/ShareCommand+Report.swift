import Foundation
#if canImport(Glibc)
import Glibc
#endif
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
    ///
    /// The C library's local time (TZ, else /etc/localtime, as TimeZone.current reads) rather
    /// than a DateFormatter, which on Linux builds an ICU date formatter for these five
    /// characters at the end of every share.
    static func localTime(_ date: Date, now: Date = Date()) -> String {
        tzset()
        func local(_ moment: Date) -> tm {
            var seconds = time_t(moment.timeIntervalSince1970.rounded(.down))
            var fields = tm()
            localtime_r(&seconds, &fields)
            return fields
        }
        let when = local(date), today = local(now)
        func pad(_ value: Int32, _ width: Int = 2) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let clock = "\(pad(when.tm_hour)):\(pad(when.tm_min))"
        if when.tm_year == today.tm_year, when.tm_yday == today.tm_yday { return clock }
        return "\(pad(when.tm_year + 1900, 4))-\(pad(when.tm_mon + 1))-\(pad(when.tm_mday)) \(clock)"
    }
}
