import Foundation
import MediaImport
import PiperCore

extension ShareRunner {
    /// Tries a share again, now, under the same id (`POST /shares/ID/retry`, Try again on the
    /// home page): a media share's failed, cancelled or postponed download is queued again in
    /// the journal (`Journal.retry`, as `piper downloads retry` does); a failed link is shared
    /// again. Throws an `HTTPError` saying why when there is nothing to try again.
    func retry(_ record: ShareRecord, now: Date = Date()) throws -> ShareRecord {
        switch record.status {
        case .queued:
            guard let job = record.job, let jobs = services.jobs else { throw Self.notRetryable }
            let state: MediaJobState?
            do {
                state = try jobs.retry(job)
            } catch let error as Journal.ControlError {
                throw HTTPError(409, Self.refusal(error, job: job))
            }
            guard let state else {
                throw HTTPError(409, "This download is in another Piper server's queue; try again from that server (piper downloads retry \(job))")
            }
            var updated = record
            updated.progress = state
            history.update(updated)
            return updated
        case .failed:
            guard record.uploaded != true, let link = record.source.flatMap(WebURL.http) else {
                throw HTTPError(409, "An uploaded file is not kept once its share failed; share the file again")
            }
            var again = run(.link(link), device: record.device, now: now)
            again.id = record.id
            history.update(again)
            return again
        case .saved, .duplicate:
            throw Self.notRetryable
        }
    }

    static let notRetryable = HTTPError(409, "Only a failed share, or a download that failed or waits to be tried again, can be tried again")

    /// The journal's refusal in the web app's words (the job is running, or ended well).
    static func refusal(_ error: Journal.ControlError, job: String) -> String {
        switch error {
        case .notAllowed(_, _, let state, _) where DownloadState.active.contains(state) || state == .landed:
            return "This download is already under way"
        case .alreadyActive:
            return "The same link is already being downloaded"
        case .unknown, .notAllowed:
            return notRetryable.message
        }
    }
}
