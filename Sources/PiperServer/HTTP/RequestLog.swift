import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One line per request: method, path, status, duration. Never bodies, never client addresses.
public struct RequestLog: Sendable {
    let write: @Sendable (String) -> Void

    public init(write: @escaping @Sendable (String) -> Void) { self.write = write }

    /// Writes each line with a single `write(2)` to stderr, so lines from worker threads never
    /// interleave.
    public static let standardError = RequestLog { line in
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        bytes.withUnsafeBytes { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }

    func record(method: String, path: String, status: Int, milliseconds: Double) {
        write("\(method) \(Self.printable(path)) \(status) \(Self.duration(milliseconds))")
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
