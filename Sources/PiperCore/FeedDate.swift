import Foundation

/// The dates feeds carry: RFC 822 in RSS (`Tue, 03 Dec 2026 07:00:00 GMT`, with the weekday,
/// the seconds or a named zone sometimes left out) and RFC 3339 in Atom. Read by hand: a feed
/// of thousands of items has thousands of dates, and Foundation's formatters take about a
/// third of a millisecond each.
public enum FeedDate {
    /// The date `text` names, nil when it is in no form feeds use.
    public static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let first = trimmed.utf8.first, first >= 0x30, first <= 0x39, trimmed.utf8.count >= 10,
           Array(trimmed.utf8)[4] == UInt8(ascii: "-") {
            return rfc3339(Array(trimmed.utf8))
        }
        return rfc822(trimmed)
    }

    /// `2026-12-04T07:00:00Z`, `2026-12-04T07:00:00.123+01:00`, or a bare `2026-12-04`.
    static func rfc3339(_ b: [UInt8]) -> Date? {
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var value = 0
            for i in from..<from + count {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                value = value * 10 + Int(b[i] - 0x30)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), (1...12).contains(month), (1...31).contains(day) else { return nil }
        var seconds = CivilTime.days(year: year, month: month, day: day) * 86_400
        guard b.count > 10 else { return Date(timeIntervalSince1970: TimeInterval(seconds)) }
        guard b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: " "), let hour = number(11, 2), let minute = number(14, 2) else { return nil }
        var index = 16
        var second = 0
        if index < b.count, b[index] == UInt8(ascii: ":"), let s = number(17, 2) { second = s; index = 19 }
        if index < b.count, b[index] == UInt8(ascii: ".") {
            index += 1
            while index < b.count, b[index] >= 0x30, b[index] <= 0x39 { index += 1 }
        }
        seconds += hour * 3600 + minute * 60 + second
        guard index < b.count else { return Date(timeIntervalSince1970: TimeInterval(seconds)) }
        switch b[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"): break
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard let zh = number(index + 1, 2) else { return nil }
            let zm = number(index + 4, 2) ?? number(index + 3, 2) ?? 0
            let offset = zh * 3600 + zm * 60
            seconds += b[index] == UInt8(ascii: "+") ? -offset : offset
        default: return nil
        }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let zones: [String: Int] = ["gmt": 0, "ut": 0, "utc": 0, "z": 0, "est": -5, "edt": -4, "cst": -6, "cdt": -5,
                                               "mst": -7, "mdt": -6, "pst": -8, "pdt": -7]

    /// `[Fri,] 4 Dec 2026 07:00[:00] GMT|+0100`.
    static func rfc822(_ text: String) -> Date? {
        var words = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(String.init)
        if let first = words.first, first.first?.isLetter == true { words.removeFirst() }
        guard words.count >= 3, let day = Int(words[0]), (1...31).contains(day),
              let month = months.firstIndex(of: String(words[1].prefix(3))), var year = Int(words[2]) else { return nil }
        if year < 100 { year += year < 50 ? 2000 : 1900 }
        var seconds = CivilTime.days(year: year, month: month + 1, day: day) * 86_400
        guard words.count >= 4 else { return Date(timeIntervalSince1970: TimeInterval(seconds)) }
        let clock = words[3].split(separator: ":").map { Int($0) }
        guard clock.count >= 2, let hour = clock[0], let minute = clock[1] else { return nil }
        seconds += hour * 3600 + minute * 60 + (clock.count > 2 ? clock[2] ?? 0 : 0)
        guard words.count >= 5 else { return Date(timeIntervalSince1970: TimeInterval(seconds)) }
        let zone = words[4]
        if let hours = zones[zone] {
            seconds -= hours * 3600
        } else if let sign = zone.first, sign == "+" || sign == "-", zone.count == 5, let value = Int(zone.dropFirst()) {
            let offset = (value / 100) * 3600 + (value % 100) * 60
            seconds += sign == "+" ? -offset : offset
        } else {
            return nil
        }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
