import Foundation
import Glibc

/// What a `Range` header asks of a representation of `size` bytes (RFC 9110 § 14): pure rules,
/// no I/O.
enum ByteRange: Equatable {
    /// No usable range (absent, malformed, another unit, or several ranges, which we may
    /// ignore): the whole representation, 200.
    case whole
    /// One satisfiable range, inclusive bounds: 206.
    case part(first: Int64, last: Int64)
    /// A well-formed range no byte of the representation satisfies: 416.
    case unsatisfiable

    static func parse(_ header: String?, size: Int64) -> ByteRange {
        guard let header else { return .whole }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes=") else { return .whole }
        let spec = trimmed.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let start = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let end = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        func number(_ text: String) -> Int64? {
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return Int64(text) ?? Int64.max   // more digits than fit: past any end
        }
        if start.isEmpty {
            guard let suffix = number(end) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .part(first: max(0, size - suffix), last: size - 1)
        }
        guard let first = number(start) else { return .whole }
        var last = size - 1
        if !end.isEmpty {
            guard let given = number(end) else { return .whole }
            guard given >= first else { return .whole }   // invalid: ignored
            last = min(given, size - 1)
        }
        guard first < size else { return .unsatisfiable }
        return .part(first: first, last: last)
    }
}

/// RFC 9110 HTTP-dates (IMF-fixdate), without a shared formatter.
enum HTTPDate {
    static func string(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(Int(parts.tm_year) + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    static func string(_ date: Date) -> String { string(Int(date.timeIntervalSince1970)) }
}
