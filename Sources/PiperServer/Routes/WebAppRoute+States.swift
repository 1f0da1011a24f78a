import Foundation
import PiperCore

/// What a share's record says to people now, computed once for the home page and
/// `/api/shares`, so both say the same state and reason as `piper downloads` (a media share's
/// job is PiperCore's `JobStatus`).
struct ShareState {
    /// The machine word: saved, duplicate, failed, or the media job's `JobStatus.State`.
    var status: String
    /// The line people read ("postponed: … ; Piper tries again at 2026-12-06 14:05 UTC"); times
    /// are UTC here, the page's script shows them in the device's zone.
    var text: String
    var live: Bool
    /// The sentence for people (`FailureMessage`), and the technical detail behind it.
    var reason: String?
    var detail: String?
    var nextAttempt: Date?
    var libraryPath: String?
    /// `POST` here to try it again (nil: nothing to retry).
    var retryPath: String?
    /// A page of the server where the person can fix it (`/connect-x`).
    var actionPath: String?

    init(_ record: ShareRecord, progress: MediaJobState?, now: Date) {
        status = record.status.rawValue
        live = false
        libraryPath = record.libraryPath
        switch record.status {
        case .saved:
            if let expires = record.expires, expires <= now {
                text = "expired: \(record.url ?? "")"
            } else {
                text = "saved: \(record.url ?? "")" + (record.expires.map { ", until \(WebPage.time($0))" } ?? "")
            }
        case .duplicate:
            text = "duplicate: already in the library as \(record.libraryPath ?? "")"
        case .failed:
            let failure = record.error ?? record.message
            reason = failure
            detail = record.detail
            text = "failed: \(failure)"
            actionPath = FailureMessage.cause(of: record.detail ?? failure) == .xLogin ? FailureMessage.connectXPath : nil
            // A link can be shared again; an upload's file is gone once its share ended.
            if record.uploaded != true, record.source.flatMap(WebURL.http) != nil { retryPath = Self.retryPath(record) }
        case .queued:
            guard let progress else {
                text = "queued"
                live = record.job != nil
                return
            }
            let job = progress.status(now: now)
            status = job.state.rawValue
            text = job.line(time: WebPage.time)
            live = job.isLive
            reason = job.reason
            detail = job.detail
            nextAttempt = job.nextAttempt
            libraryPath = job.libraryPath
            actionPath = job.failure?.actionPath
            if job.isRetryable { retryPath = Self.retryPath(record) }
        }
    }

    static func retryPath(_ record: ShareRecord) -> String { "/shares/\(record.id)/retry" }

    /// The fields `/api/shares` lists for a record (beside its id, title, link and job).
    var json: [String: Any] {
        let shownDetail: String? = detail == reason ? nil : detail
        let error: String? = status == "failed" ? reason : nil
        return ["status": status, "state": text, "live": live, "reason": reason ?? NSNull(), "detail": shownDetail ?? NSNull(),
                "nextAttempt": nextAttempt.map(RequestLog.timestamp) ?? NSNull(), "retry": retryPath ?? NSNull(),
                "action": actionPath ?? NSNull(), "error": error ?? NSNull(), "libraryPath": libraryPath ?? NSNull()]
    }

    /// The record's state on the home page: the line (the next attempt's time as a `<time>`,
    /// which the page's script shows in the device's zone), the technical detail behind a
    /// disclosure, the way out, and a Try again button (hidden until the job can be retried;
    /// the script follows).
    var html: String {
        let e = WebPage.e
        let marker = "\u{E000}"
        var line = e(text)
        if let nextAttempt {
            let utc = WebPage.time(nextAttempt)
            line = e(text.replacingOccurrences(of: utc, with: marker))
                .replacingOccurrences(of: marker, with: "<time datetime=\"\(RequestLog.timestamp(nextAttempt))\">\(e(utc))</time>")
        }
        var html = "<span class=\"state\">\(line)</span>"
        if let actionPath { html += " <a class=\"action\" href=\"\(e(actionPath))\">Connect your X account</a>" }
        if let detail, detail != reason {
            html += "<details class=\"detail\"><summary>Details</summary><code>\(e(detail))</code></details>"
        }
        if retryPath != nil || live {
            let path = retryPath ?? ""
            html += "<form method=\"post\" action=\"\(e(path))\" class=\"retry\"\(retryPath == nil ? " hidden" : "")>"
                + "<button type=\"submit\">Try again</button></form>"
        }
        return html
    }
}
