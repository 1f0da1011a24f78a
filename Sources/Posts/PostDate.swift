import PiperCore

/// A post's time as a reader reads it ("2 March 2024, 10:00 UTC"), from the ISO 8601 text the
/// networks give (or Reddit's seconds since 1970). Written out by hand, as the share path uses
/// none of ICU's date formatters (they cost a tenth of a share).
enum PostDate {
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                         "November", "December"]

    /// `2024-03-02T10:00:00Z`-like text (fractions and offsets allowed) as plain text in UTC;
    /// nil for text of another shape.
    static func shown(_ iso: String) -> String? {
        guard let seconds = seconds(iso) else { return nil }
        let (year, month, day, hour, minute, _) = CivilTime.parts(seconds)
        let time = (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
        return "\(day) \(months[month - 1]) \(year), \(time) UTC"
    }

    /// Seconds since 1970 as ISO 8601 in UTC (`2024-03-02T10:00:00Z`).
    static func iso(_ seconds: Double) -> String {
        // A time outside years 1 to 9999, or not a number (a malformed answer), shows as the epoch rather than trap.
        let whole = (-62_135_596_800 ..< 253_402_300_800).contains(seconds) ? Int(seconds.rounded(.down)) : 0
        let (year, month, day, hour, minute, second) = CivilTime.parts(whole)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))Z"
    }

    static func seconds(_ text: String) -> Int? {
        let chars = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= chars.count else { return nil }
            var value = 0
            for c in chars[range] {
                guard c >= 48 && c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            return value
        }
        guard chars.count >= 16, chars[4] == 45, chars[7] == 45, chars[10] == 84 || chars[10] == 32, chars[13] == 58,
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
              let minute = number(14..<16), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60 else { return nil }
        var at = 16
        var second = 0
        if at < chars.count, chars[at] == 58, let s = number(17..<19) { second = s; at = 19 }
        if at < chars.count, chars[at] == 46 { at += 1; while at < chars.count, chars[at] >= 48, chars[at] <= 57 { at += 1 } }
        var offset = 0
        if at < chars.count, chars[at] == 43 || chars[at] == 45 {
            let sign = chars[at] == 45 ? -1 : 1
            guard let h = number(at + 1..<at + 3) else { return nil }
            let minutesAt = at + 3 < chars.count && chars[at + 3] == 58 ? at + 4 : at + 3
            offset = sign * (h * 3600 + (number(minutesAt..<minutesAt + 2) ?? 0) * 60)
        }
        return CivilTime.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
    }
}
