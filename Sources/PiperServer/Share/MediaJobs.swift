import Foundation
import MediaImport
import PiperCore

/// Where a media job stands, as the journal says: MediaImport's own `DownloadState`, so every
/// state a job can be in is handled here (a switch that misses one does not compile).
/// What people are told of it is `status` (PiperCore's `JobStatus`).
public struct MediaJobState: Sendable, Equatable, Codable {
    public var state: DownloadState
    public var bytes: Int64
    public var total: Int64?
    public var libraryPath: String?
    /// The journal's technical reason (the sentence for people is `status.reason`).
    public var reason: String?
    /// When the next attempt is due: a postponed job, or a download between two attempts.
    public var notBefore: Date?
    /// The link downloaded (whose site a failure's sentence names).
    public var url: String?

    public init(state: DownloadState, bytes: Int64 = 0, total: Int64? = nil, libraryPath: String? = nil, reason: String? = nil,
                notBefore: Date? = nil, url: String? = nil) {
        self.state = state
        self.bytes = bytes
        self.total = total
        self.libraryPath = libraryPath
        self.reason = reason
        self.notBefore = notBefore
        self.url = url
    }

    /// What people are told: postponed or retrying with the reason and the next attempt, failed
    /// with the reason, as `piper downloads` says it.
    public func status(now: Date = Date()) -> JobStatus {
        JobStatus.download(state: state, reason: reason, notBefore: notBefore, bytes: bytes, total: total, libraryPath: libraryPath,
                           url: url, now: now)
    }

    /// Still moving: the web app keeps asking (a job that ended, `cancelled` included, is not).
    public var isLive: Bool { !DownloadState.terminal.contains(state) }

    /// "downloading 42 %", "postponed: … ; Piper tries again at 14:05 UTC", "failed: reason".
    public var summary: String { status().line(time: WebPage.time) }
}

/// Reads media jobs' state for the home page and `/api/shares` (tests may give their own).
public protocol MediaJobs: Sendable {
    func state(of id: String) -> MediaJobState?
    /// Queues a failed, cancelled or postponed job again, due now (`Journal.retry`); throws the
    /// journal's refusal (`Journal.ControlError`), or nil when the job is not in this journal.
    func retry(_ id: String) throws -> MediaJobState?
}

/// The journal's word on media jobs, through one journal connection for the server's life
/// (opened on first use, and again only if opening failed).
///
/// `@unchecked Sendable`: `journal` is read and written only under `lock`.
public final class JournalJobs: MediaJobs, @unchecked Sendable {
    private let folder: StateFolder
    private let lock = NSLock()
    private var journal: Journal?

    public init(state: StateFolder) { folder = state }

    public func state(of id: String) -> MediaJobState? {
        lock.lock()
        defer { lock.unlock() }
        if journal == nil { journal = try? Journal(state: folder) }
        guard let entry = (try? journal?.entry(id: id)) ?? nil else { return nil }
        return Self.state(entry)
    }

    public func retry(_ id: String) throws -> MediaJobState? {
        lock.lock()
        defer { lock.unlock() }
        if journal == nil { journal = try Journal(state: folder) }
        guard let journal, try journal.entry(id: id) != nil else { return nil }
        // The server's own agent watches downloads/: the journal's write wakes it.
        return Self.state(try journal.retry(id))
    }

    static func state(_ entry: JournalEntry) -> MediaJobState {
        MediaJobState(state: entry.state, bytes: entry.bytes, total: entry.total, libraryPath: entry.libraryPath, reason: entry.reason,
                      notBefore: entry.notBefore, url: entry.url)
    }
}
