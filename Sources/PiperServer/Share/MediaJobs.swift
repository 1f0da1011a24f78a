import Foundation
import MediaImport
import PiperCore

/// Where a media job stands, as the journal says: MediaImport's own `DownloadState`, so every
/// state a job can be in is handled here (a switch that misses one does not compile).
public struct MediaJobState: Sendable, Equatable, Codable {
    public var state: DownloadState
    public var bytes: Int64
    public var total: Int64?
    public var libraryPath: String?
    public var reason: String?

    public init(state: DownloadState, bytes: Int64 = 0, total: Int64? = nil, libraryPath: String? = nil, reason: String? = nil) {
        self.state = state
        self.bytes = bytes
        self.total = total
        self.libraryPath = libraryPath
        self.reason = reason
    }

    /// Still moving: the web app keeps asking (a job that ended, `cancelled` included, is not).
    public var isLive: Bool { !DownloadState.terminal.contains(state) }

    /// "downloading 42 %", "imported as Podcasts/ep42.mp3", "failed: reason".
    public var summary: String {
        switch state {
        case .downloading:
            if let total, total > 0 { return "downloading \(Int(Double(bytes) * 100 / Double(total))) %" }
            return "downloading"
        case .imported, .duplicate: return libraryPath.map { "\(state.rawValue) as \($0)" } ?? state.rawValue
        case .failed: return "failed: \(reason ?? "no reason recorded")"
        case .queued, .downloaded, .landed, .cancelled: return state.rawValue
        }
    }
}

/// Reads media jobs' state for the home page and `/api/shares` (tests may give their own).
public protocol MediaJobs: Sendable {
    func state(of id: String) -> MediaJobState?
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
        return MediaJobState(state: entry.state, bytes: entry.bytes, total: entry.total,
                             libraryPath: entry.libraryPath, reason: entry.reason)
    }
}
