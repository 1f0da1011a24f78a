import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One line per request: time, client address (the one a trusted proxy names), device, method,
/// path (no query string), status, duration. Never bodies, queries or credentials.
public struct RequestLog: Sendable {
    let write: @Sendable (String) -> Void
    /// Writes out what `write` may still hold (the server calls it when it stops).
    let flush: @Sendable () -> Void
    /// Takes a finished line's bytes (no newline) instead of `write`, when the log can: the
    /// access log's lines are then built without a `String` per request.
    var writeBytes: (@Sendable (UnsafeBufferPointer<UInt8>) -> Void)?

    public init(write: @escaping @Sendable (String) -> Void, flush: @escaping @Sendable () -> Void = {}) {
        self.write = write
        self.flush = flush
    }

    /// Writes each line with a single `write(2)` to stderr, so lines from worker threads never
    /// interleave.
    public static let standardError = RequestLog { line in
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        bytes.withUnsafeBytes { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }

    /// Stderr in batches (`LineBuffer`): the access log's default, so a request costs no system
    /// call of its own. A line waits at most 50 ms; a `kill -9` loses only those.
    public static let bufferedStandardError: RequestLog = {
        let buffer = LineBuffer(descriptor: 2)
        var log = RequestLog(write: { buffer.append($0) }, flush: { buffer.flush() })
        log.writeBytes = { buffer.append(bytes: $0) }
        return log
    }()

    func record(method: String, path: String, status: Int, milliseconds: Double, client: String = "-", device: String? = nil,
                now: Date = Date()) {
        if let writeBytes, device == nil,
           Self.withLine(method: method, path: path, status: status, milliseconds: milliseconds, client: client, now: now, writeBytes) {
            return
        }
        let stamp = Self.timestamp(now)
        let who = device.map { Self.printable($0).replacingOccurrences(of: " ", with: "_") } ?? "-"
        write("\(stamp) \(client.isEmpty ? "-" : client) \(who) \(method) \(Self.printable(Self.redacted(path))) \(status) \(Self.duration(milliseconds))")
    }

    /// The path without credentials in it: the private feed's secret (`/feed/<secret>.xml`,
    /// `/feed/<secret>/…`) is logged as `SECRET`.
    static func redacted(_ path: String) -> String {
        guard path.hasPrefix("/feed/") else { return path }
        let rest = path.dropFirst(6)
        let end = rest.firstIndex { $0 == "/" || $0 == "." } ?? rest.endIndex
        return "/feed/SECRET" + rest[end...]
    }

    /// `2025-01-31T12:34:56Z`, computed by hand (no formatter per line).
    static func timestamp(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970)
        var days = seconds / 86400, rest = seconds % 86400
        if rest < 0 { rest += 86400; days -= 1 }
        // Civil from days (Howard Hinnant's algorithm).
        let z = days + 719468, era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097, yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1, month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60))Z"
    }

    /// `12.34ms`: two decimals, like `%.2f`, without `String(format:)` (which costs a locale
    /// lookup per call on Linux).
    static func duration(_ milliseconds: Double) -> String {
        let hundredths = Int((max(0, milliseconds) * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)ms"
    }

    /// Keeps a log line on one line: control characters and overlong paths are cut.
    static func printable(_ path: String) -> String {
        if path.utf8.count <= 200, !path.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return path }
        let cleaned = String(path.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
        return cleaned.count > 200 ? String(cleaned.prefix(200)) + "…" : cleaned
    }
}
