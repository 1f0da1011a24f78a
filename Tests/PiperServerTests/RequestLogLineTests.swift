import Foundation
@testable import PiperServer
import PiperTestSupport
import Testing

/// The access log's byte-built lines read exactly as its `String`-built ones.
@Suite(.ownThread) struct RequestLogLineTests {
    /// Lines from one log that builds bytes and one that builds strings, for the same requests.
    private func both(_ record: (RequestLog) -> Void) -> (bytes: [String], strings: [String]) {
        let fast = Lines(), slow = Lines()
        var bytesLog = RequestLog(write: { fast.add($0) })
        bytesLog.writeBytes = { fast.add(String(decoding: $0, as: UTF8.self)) }
        record(bytesLog)
        record(RequestLog(write: { slow.add($0) }))
        return (fast.all, slow.all)
    }

    @Test func byteLinesEqualStringLines() {
        let times = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_798_761_599.75),
                     Date(timeIntervalSince1970: 951_782_400), Date(timeIntervalSince1970: 4_102_444_800.5)]
        let (bytes, strings) = both { log in
            for (index, now) in times.enumerated() {
                log.record(method: "GET", path: "/3b241101-e2bb-4255-8caf-4136c566a962", status: 200,
                           milliseconds: [0, 0.004, 12.345, 1234.5][index], client: index == 0 ? "" : "192.0.2.7", now: now)
            }
            log.record(method: "POST", path: "/save", status: 500, milliseconds: 99.999, client: "::1", now: times[1])
            // These go the String way in both logs.
            log.record(method: "GET", path: "/feed/abc.xml", status: 404, milliseconds: 1, client: "::1", now: times[1])
            log.record(method: "GET", path: "/a\u{1}b", status: 404, milliseconds: 1, now: times[1])
            log.record(method: "GET", path: "/x", status: 200, milliseconds: 1, device: "Phone 1", now: times[1])
            log.record(method: "GET", path: "/x", status: 200, milliseconds: 1, client: String(repeating: "a", count: 65), now: times[1])
            log.record(method: String(repeating: "M", count: 17), path: "/x", status: 405, milliseconds: 1, now: times[1])
            // The longest line built on the stack: every part at its limit.
            log.record(method: String(repeating: "M", count: 16), path: "/" + String(repeating: "p", count: 199), status: Int.max,
                       milliseconds: 9_999_999_999_999, client: String(repeating: "c", count: 64), now: times[3])
        }
        #expect(bytes.count == 11)
        #expect(bytes.last?.utf8.count ?? 0 <= RequestLog.lineCapacity)
        #expect(bytes == strings)
        #expect(strings[0] == "1970-01-01T00:00:00Z - - GET /3b241101-e2bb-4255-8caf-4136c566a962 200 0.00ms")
    }
}

/// `@unchecked Sendable`: `lines` is only touched while holding `lock`.
private final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
