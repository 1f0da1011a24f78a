import Foundation

/// The dates feeds carry: RFC 822 in RSS (`Tue, 03 Dec 2026 07:00:00 GMT`, with the weekday,
/// the seconds or a named zone sometimes left out) and RFC 3339 in Atom.
public enum FeedDate {
    /// The date `text` names, nil when it is in no form feeds use.
    public static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        lock.lock()
        defer { lock.unlock() }
        if let date = iso.date(from: trimmed) ?? isoFractional.date(from: trimmed) { return date }
        var rfc = trimmed
        if let comma = rfc.firstIndex(of: ",") { rfc = String(rfc[rfc.index(after: comma)...]).trimmingCharacters(in: .whitespaces) }
        for format in rfc822Formats {
            formatter.dateFormat = format
            if let date = formatter.date(from: rfc) { return date }
        }
        return nil
    }

    /// The formatters are shared and `dateFormat` is set per try: one parse at a time.
    private static let lock = NSLock()
    nonisolated(unsafe) private static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        return formatter
    }()
    private static let rfc822Formats = ["d MMM yyyy HH:mm:ss Z", "d MMM yyyy HH:mm:ss zzz", "d MMM yyyy HH:mm Z", "d MMM yyyy HH:mm zzz",
                                        "d MMM yy HH:mm:ss Z", "d MMM yyyy"]
    nonisolated(unsafe) private static let iso: ISO8601DateFormatter = ISO8601DateFormatter()
    nonisolated(unsafe) private static let isoFractional: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
}
