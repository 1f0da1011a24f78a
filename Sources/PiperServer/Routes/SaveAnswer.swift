import Foundation
import PiperCore

/// The body of a successful save: `{"expires": …, "removed": {…}, "url": …}` with sorted keys.
/// `url` is what the Piper spec asks for; `expires` (ISO 8601, UTC, whole seconds) tells the
/// client how long the link lives; `removed` counts what the sanitizer took out, by kind, and
/// is left out when nothing was.
enum SaveAnswer {
    static func body(url: String, expires: Date, removed: [String: Int]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(url.utf8.count + 64)
        out.append(contentsOf: #"{"expires":"#.utf8)
        JSONText.appendString(UTCTime.iso8601(expires), to: &out)
        let counts = removed.filter { $0.value > 0 }
        if !counts.isEmpty {
            out.append(contentsOf: #","removed":{"#.utf8)
            for (index, key) in counts.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONText.appendString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                out.append(contentsOf: String(counts[key] ?? 0).utf8)
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: #","url":"#.utf8)
        JSONText.appendString(url, to: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }
}

/// UTC times written without a formatter (no locale or calendar lookups on the request path).
enum UTCTime {
    /// `2027-01-15T08:00:00Z`.
    static func iso8601(_ date: Date) -> String {
        let (y, mo, d, h, mi, s) = parts(date)
        return "\(pad(y, 4))-\(pad(mo))-\(pad(d))T\(pad(h)):\(pad(mi)):\(pad(s))Z"
    }

    /// `14:32 UTC`.
    static func clock(_ date: Date) -> String {
        let (_, _, _, h, mi, _) = parts(date)
        return "\(pad(h)):\(pad(mi)) UTC"
    }

    /// `2027-01-15`.
    static func day(_ date: Date) -> String {
        let (y, mo, d, _, _, _) = parts(date)
        return "\(pad(y, 4))-\(pad(mo))-\(pad(d))"
    }

    private static func pad(_ value: Int, _ width: Int = 2) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// Year, month, day, hour, minute, second (proleptic Gregorian, UTC).
    static func parts(_ date: Date) -> (Int, Int, Int, Int, Int, Int) {
        CivilTime.parts(Int(date.timeIntervalSince1970.rounded(.down)))
    }
}
