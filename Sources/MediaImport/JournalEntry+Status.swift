import Foundation
import PiperCore

extension JobStatus {
    /// What a journal row says to people: its state, with `postponed` for a queued job waiting
    /// to be tried later and `retrying` for a download between two attempts (both until
    /// `notBefore`), and its reason as a `FailureMessage` (the journal keeps the technical text).
    /// `surface` decides the way out a sentence offers (see `FailureMessage.Surface`).
    public static func download(state: DownloadState, reason: String?, notBefore: Date?, bytes: Int64 = 0, total: Int64? = nil,
                                libraryPath: String? = nil, url: String? = nil, surface: FailureMessage.Surface = .server,
                                now: Date = Date()) -> JobStatus {
        let waiting = notBefore.map { $0 > now } ?? false
        let technical = reason.map(Self.plainReason).flatMap { $0.isEmpty ? nil : $0 }
        let failure = technical.map { FailureMessage($0, url: url, surface: surface) }
        switch state {
        case .queued where waiting:
            return JobStatus(state: .postponed, failure: failure, nextAttempt: notBefore, bytes: bytes, total: total)
        case .downloading where waiting && technical != nil:
            return JobStatus(state: .retrying, failure: failure, nextAttempt: notBefore, bytes: bytes, total: total)
        case .queued:
            return JobStatus(state: .queued, bytes: bytes, total: total)
        case .downloading, .downloaded, .landed:
            // A downloaded or landed file is on its way into the library: still "downloading" to a person.
            return JobStatus(state: .downloading, bytes: bytes, total: state == .downloading ? total : (total ?? bytes))
        case .imported, .duplicate:
            return JobStatus(state: state == .imported ? .imported : .duplicate, bytes: bytes, total: total, libraryPath: libraryPath)
        case .failed:
            return JobStatus(state: .failed, failure: failure ?? FailureMessage("no reason recorded", url: url, surface: surface),
                             bytes: bytes, total: total)
        case .cancelled:
            return JobStatus(state: .cancelled, bytes: bytes, total: total)
        }
    }

    /// The technical reason without the wrapping the journal once stored with it: "Will try again
    /// at 14:32 UTC: " (rows written before the next attempt was only a column) and "retrying: ".
    static func plainReason(_ reason: String) -> String {
        if reason.hasPrefix("Will try again at "), let colon = reason.range(of: "UTC: ") { return String(reason[colon.upperBound...]) }
        if reason.hasPrefix(Agent.retryingPrefix) { return String(reason.dropFirst(Agent.retryingPrefix.count)) }
        return reason
    }
}

extension JournalEntry {
    /// Where this job stands for people (`JobStatus.download`).
    public func status(surface: FailureMessage.Surface = .server, now: Date = Date()) -> JobStatus {
        JobStatus.download(state: state, reason: reason, notBefore: notBefore, bytes: bytes, total: total, libraryPath: libraryPath,
                           url: url, surface: surface, now: now)
    }
}
