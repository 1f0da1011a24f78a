import Foundation
import PiperTestSupport
import Testing
@testable import PiperNet

/// The receipt's `expires` is read without ICU; Foundation's ISO8601DateFormatter is the
/// reference it must agree with.
@Suite(.ownThread) struct SaveExpiryTests {
    static func reference(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    @Test(arguments: [
        "2027-01-15T08:00:00Z", "1970-01-01T00:00:00Z", "2000-02-29T23:59:59Z", "2026-12-01T17:10:42Z",
        "2100-03-01T00:00:00Z", "1969-12-31T23:59:59Z", "2027-01-15T08:00:00.250Z", "2027-01-15T08:00:00+02:00",
        "2027-01-15T08:00:00-05:30", "2027-06-30T12:34:56.5+01:00",
    ])
    func agreesWithFoundation(text: String) throws {
        let parsed = try #require(HTTPSaveClient.parseExpiry(text))
        let expected = try #require(Self.reference(text))
        #expect(abs(parsed.timeIntervalSince1970 - expected.timeIntervalSince1970) < 0.001, "\(text)")
    }

    @Test func theBackendsFormatIsExact() {
        #expect(HTTPSaveClient.parseExpiry("2027-01-15T08:00:00Z")?.timeIntervalSince1970 == 1_800_000_000)
    }

    @Test(arguments: [
        "", "2027-01-15", "2027-01-15T08:00Z", "2027-13-01T00:00:00Z", "2027-02-29T00:00:00Z", "2027-01-15T24:00:00Z",
        "2027-01-15T08:00:00", "2027-01-15T08:00:00Zjunk", "2027-01-15T08:00:00.Z", "2027-01-15 08:00:00Z",
        "27-01-15T08:00:00Z", "2027-01-15T08:00:00+0200", "tomorrow",
    ])
    func rejectsWhatIsNotAnInternetDateTime(text: String) {
        #expect(HTTPSaveClient.parseExpiry(text) == nil, "\(text)")
    }
}
