import Foundation
import PiperTestSupport
import Testing
@testable import piper

/// "link valid until 14:32": the C library's local time must say what a DateFormatter in
/// TimeZone.current says (the reference here), today and on another day.
@Suite(.ownThread) struct ShareLocalTimeTests {
    static func reference(_ date: Date, now: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone.current
        formatter.dateFormat = Calendar.current.isDate(date, inSameDayAs: now) ? "HH:mm" : "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }

    @Test(arguments: [0, 60, 3_600, 7_200, 86_400, 260_434, -86_400, 34_560_000] as [Double])
    func agreesWithFoundation(offset: Double) {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let date = now.addingTimeInterval(offset)
        #expect(ShareOutcome.localTime(date, now: now) == Self.reference(date, now: now))
    }

    @Test func anotherDayCarriesItsDate() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let text = ShareOutcome.localTime(now.addingTimeInterval(3 * 86_400), now: now)
        #expect(text.count == "2027-01-18 08:00".count)
        #expect(text.hasPrefix("2027-01-1"))
    }
}
