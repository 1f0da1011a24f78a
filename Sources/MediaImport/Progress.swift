import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One progress line, e.g. `episode.mp3  42% [########          ] 11.2/26.7 MB  3.1 MB/s  ETA 0:05`.
/// Pure formatting; `ProgressDisplay` decides when and where to draw it.
public enum ProgressLine {
    package static func format(name: String, bytes: Int64, total: Int64?, bytesPerSecond: Double, width: Int = 20) -> String {
        let shortName = name.count > 28 ? String(name.prefix(27)) + "…" : name
        let rate = "\(megabytes(Int64(bytesPerSecond))) MB/s"
        guard let total, total > 0 else {
            return "\(shortName)  \(megabytes(bytes)) MB  \(rate)"
        }
        let fraction = min(max(Double(bytes) / Double(total), 0), 1)
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        var line = "\(shortName)  \(Int(fraction * 100))% [\(bar)] \(megabytes(bytes))/\(megabytes(total)) MB  \(rate)"
        if bytesPerSecond > 0, bytes < total {
            line += "  ETA \(clock(Double(total - bytes) / bytesPerSecond))"
        }
        return line
    }

    /// Bytes as decimal megabytes with one decimal: `11.2`.
    public static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f", Double(bytes) / 1_000_000)
    }

    /// A duration as `m:ss` or `h:mm:ss`, rounded up.
    public static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}

/// Draws the progress of running downloads on stderr, one line per download, each cut to the
/// terminal's width and redrawn in place (no scrollback flood), only on a terminal that accepts
/// escape codes, at most five times a second. Finished downloads leave one line above the block.
///
/// `@unchecked Sendable`: every mutable field is guarded by `lock`.
public final class ProgressDisplay: @unchecked Sendable {
    private struct Item { var name: String; var bytes: Int64; var total: Int64?; var started: Date; var startBytes: Int64 }
    private let lock = NSLock()
    private var items: [String: Item] = [:]
    private var lastDraw = Date.distantPast
    /// How many lines the last draw left on screen (the cursor sits at the end of the last).
    private var drawnLines = 0
    private let width: () -> Int
    private let write: (String) -> Void
    /// False off a terminal: nothing is drawn, and the agent tells the desktop instead.
    public let enabled: Bool

    /// Enabled by default only on a terminal that accepts escape codes (not with NO_COLOR or TERM=dumb).
    public init(enabled: Bool = ProgressDisplay.terminalAcceptsEscapes(),
                width: @escaping () -> Int = ProgressDisplay.terminalWidth,
                write: @escaping (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) {
        self.enabled = enabled
        self.width = width
        self.write = write
    }

    /// stderr is a TTY, NO_COLOR is unset and TERM is not `dumb`.
    public static func terminalAcceptsEscapes(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        isatty(2) == 1 && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// The terminal's columns (TIOCGWINSZ on stderr), else `COLUMNS`, else 80.
    public static func terminalWidth() -> Int {
        var size = winsize()
        if ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init) ?? 80
    }

    /// Records a download's progress and redraws the block, at most five times a second.
    public func update(id: String, name: String, bytes: Int64, total: Int64?) {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        var item = items[id] ?? Item(name: name, bytes: bytes, total: total, started: Date(), startBytes: bytes)
        item.name = name
        item.bytes = bytes
        item.total = total
        items[id] = item
        guard Date().timeIntervalSince(lastDraw) > 0.2 else { return }
        lastDraw = Date()
        write(clear() + block())
    }

    /// Ends a download's bar, leaving `message` as one line above the block.
    public func finish(id: String, message: String) {
        lock.lock(); defer { lock.unlock() }
        items[id] = nil
        guard enabled else { return }
        write(clear() + cut(message) + "\n" + block())
    }

    /// Moves to the start of the block last drawn and clears it to the end of the screen.
    private func clear() -> String {
        guard drawnLines > 0 else { return "\r" }
        let up = drawnLines > 1 ? "\u{1B}[\(drawnLines - 1)A" : ""
        drawnLines = 0
        return "\r" + up + "\u{1B}[J"
    }

    /// The current lines, oldest download first, without a final newline.
    private func block() -> String {
        let lines = items.values.sorted { $0.started < $1.started }.map { item in
            let elapsed = max(Date().timeIntervalSince(item.started), 0.001)
            return cut(ProgressLine.format(name: item.name, bytes: item.bytes, total: item.total,
                                           bytesPerSecond: Double(item.bytes - item.startBytes) / elapsed))
        }
        drawnLines = lines.count
        return lines.joined(separator: "\n")
    }

    /// A line no wider than the terminal (one column spare, so the cursor never wraps).
    private func cut(_ line: String) -> String {
        let limit = max(width() - 1, 10)
        return line.count <= limit ? line : String(line.prefix(limit - 1)) + "…"
    }
}
