import Foundation

/// Where a media job stands, said the same way by every surface: the web app's home page,
/// `/api/shares` (and a Shortcut's JSON), and `piper downloads`. Each reads it from the download
/// journal (MediaImport's `JobStatus.download`) and prints it with its own clock: the page in
/// the device's time zone, the CLI in its own, JSON as ISO 8601 UTC.
public struct JobStatus: Sendable, Equatable {
    /// The states people see. `retrying`: an attempt failed and the next one is due soon (the
    /// job keeps its slot); `postponed`: the server could not be reached and the job waits
    /// until `nextAttempt`.
    public enum State: String, Sendable, Codable, CaseIterable {
        case queued, downloading, retrying, postponed, imported, duplicate, failed, cancelled
    }

    public var state: State
    /// Why it failed, waits or retries (the sentence and its technical detail).
    public var failure: FailureMessage?
    /// When the next attempt is due (retrying, postponed).
    public var nextAttempt: Date?
    public var bytes: Int64
    public var total: Int64?
    /// Where an imported or duplicate job's file is in the library.
    public var libraryPath: String?

    public init(state: State, failure: FailureMessage? = nil, nextAttempt: Date? = nil, bytes: Int64 = 0, total: Int64? = nil,
                libraryPath: String? = nil) {
        self.state = state
        self.failure = failure
        self.nextAttempt = nextAttempt
        self.bytes = bytes
        self.total = total
        self.libraryPath = libraryPath
    }

    /// The sentence for people, nil when nothing went wrong.
    public var reason: String? { failure?.sentence }
    /// The technical text behind `reason`.
    public var detail: String? { failure?.detail }

    /// Still moving: a page keeps asking.
    public var isLive: Bool {
        switch state {
        case .queued, .downloading, .retrying, .postponed: return true
        case .imported, .duplicate, .failed, .cancelled: return false
        }
    }

    /// A person may ask for it to be tried again now (`piper downloads retry`, `POST /shares/ID/retry`).
    public var isRetryable: Bool {
        switch state {
        case .failed, .cancelled, .postponed: return true
        case .queued, .downloading, .retrying, .imported, .duplicate: return false
        }
    }

    /// "downloading 42 %", "postponed: example.org is having trouble (HTTP 503); Piper tries
    /// again at 14:05", "failed: <reason>", "imported as Podcasts/ep.mp3"; `time` writes the
    /// next attempt's time in the reader's zone.
    public func line(time: (Date) -> String) -> String {
        switch state {
        case .downloading:
            if let total, total > 0 { return "downloading \(min(Int(Double(bytes) * 100 / Double(total)), 100)) %" }
            return "downloading"
        case .retrying, .postponed:
            let why = failure?.happened ?? "waiting"
            return "\(state.rawValue): \(why)" + (nextAttempt.map { "; Piper tries again at \(time($0))" } ?? "")
        case .failed: return "failed: \(reason ?? "no reason recorded")"
        case .imported, .duplicate: return libraryPath.map { "\(state.rawValue) as \($0)" } ?? state.rawValue
        case .queued, .cancelled: return state.rawValue
        }
    }

    /// `2026-12-06T14:05:00Z`, as every JSON answer writes a time.
    public static func iso8601(_ date: Date) -> String {
        let (y, mo, d, h, mi, s) = CivilTime.parts(Int(date.timeIntervalSince1970.rounded(.down)))
        func pad(_ value: Int, _ width: Int = 2) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(y, 4))-\(pad(mo))-\(pad(d))T\(pad(h)):\(pad(mi)):\(pad(s))Z"
    }
}
