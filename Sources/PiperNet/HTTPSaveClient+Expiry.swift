import Foundation
import PiperCore

extension HTTPSaveClient {
    /// `2027-01-15T08:00:00Z` (what the backend writes), with or without fractional seconds,
    /// `Z` or a `±hh:mm` offset (RFC 3339's internet date-time); nil for anything else.
    ///
    /// Read by hand rather than with `ISO8601DateFormatter`: on Linux that builds an ICU date
    /// parser (number parsers, Unicode sets, calendar data), a tenth of a whole `piper share`.
    static func parseExpiry(_ text: String) -> Date? {
        var utf8 = Array(text.utf8)[...]
        func number(_ digits: Int) -> Int? {
            guard utf8.count >= digits else { return nil }
            var value = 0
            for byte in utf8.prefix(digits) {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            utf8 = utf8.dropFirst(digits)
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard let byte = utf8.first, characters.utf8.contains(byte) else { return false }
            utf8 = utf8.dropFirst()
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
              expect("Tt"), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
              let second = number(2),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 61 else { return nil }
        var fraction = 0.0
        if expect(".") {
            var scale = 0.1
            var any = false
            while let byte = utf8.first, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                fraction += Double(byte - UInt8(ascii: "0")) * scale
                scale /= 10
                any = true
                utf8 = utf8.dropFirst()
            }
            guard any else { return nil }
        }
        var offset = 0
        if !expect("Zz") {
            guard let sign = utf8.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
            utf8 = utf8.dropFirst()
            guard let hours = number(2), expect(":"), let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offset = (hours * 60 + minutes) * 60 * (sign == UInt8(ascii: "-") ? -1 : 1)
        }
        guard utf8.isEmpty else { return nil }
        let seconds = daysSinceEpoch(year: year, month: month, day: day) * 86_400
            + hour * 3_600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Days from 1970-01-01 to the proleptic Gregorian date.
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        CivilTime.days(year: year, month: month, day: day)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
