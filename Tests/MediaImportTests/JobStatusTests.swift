import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import MediaImport

/// A journal row as people read it: queued with a future `not_before` is postponed, a download
/// between two attempts is retrying, a row written by a former version keeps only its reason.
@Suite(.ownThread) struct JobStatusTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func theJournalsStatesReadAsPeopleSeeThem() {
        let later = now.addingTimeInterval(300)
        let reason = "Gave up after 5 attempts: HTTP 503 Service Unavailable"
        let postponed = JobStatus.download(state: .queued, reason: reason, notBefore: later, url: "https://cdn.example/ep.mp3", now: now)
        #expect(postponed.state == .postponed && postponed.nextAttempt == later && postponed.detail == reason)
        #expect(postponed.reason == "cdn.example is having trouble (HTTP 503); try again later")
        // Due already: queued, waiting for a slot.
        #expect(JobStatus.download(state: .queued, reason: reason, notBefore: now.addingTimeInterval(-1), now: now).state == .queued)
        let retrying = JobStatus.download(state: .downloading, reason: "retrying: HTTP 502 Bad Gateway", notBefore: later, now: now)
        #expect(retrying.state == .retrying && retrying.detail == "HTTP 502 Bad Gateway")
        // The attempt is under way again: downloading, whatever reason the last one left.
        #expect(JobStatus.download(state: .downloading, reason: "retrying: HTTP 502 Bad Gateway", notBefore: now, now: now).state == .downloading)
        // A row from before the next attempt was a column of its own.
        let former = JobStatus.download(state: .queued, reason: "Will try again at 14:32 UTC: \(reason)", notBefore: later, now: now)
        #expect(former.detail == reason)
        #expect(JobStatus.download(state: .landed, reason: nil, notBefore: nil, bytes: 10, now: now).line { _ in "" } == "downloading 100 %")
        let failed = JobStatus.download(state: .failed, reason: nil, notBefore: nil, now: now)
        #expect(failed.state == .failed && failed.reason == "no reason recorded" && failed.isRetryable)
        #expect(JobStatus.download(state: .cancelled, reason: "Cancelled", notBefore: nil, now: now).failure == nil)
    }

    /// A real agent between two attempts: the journal says why and when the next one is due, so
    /// every listing says "retrying" (not a bare "downloading"); then the file lands.
    @Test func aDownloadBetweenTwoAttemptsIsRetryingWithItsReason() throws {
        let home = try TempHome()
        let server = try TestHTTPServer()
        try server.route("/ep.mp3", .init(body: try Fixtures.bytes("sample.mp3")), faults: [.status(503, times: 1, retryAfter: "6")])
        let url = server.url("/ep.mp3").absoluteString
        let id = try Journal(state: home.state).add(url: url, source: url, kind: .url, folder: nil).entry.id
        // Retry-After: 6 holds the next attempt off long enough to be seen on a loaded machine.
        let agent = try startPiper(["agent"], environment: home.environment())
        defer { killHard(agent) }
        let journal = try Journal(state: home.state)
        var seen: JobStatus?
        let retrying = eventually(within: 30) {
            seen = (try? journal.entry(id: id))??.status()
            return seen?.state == .retrying
        }
        #expect(retrying, "\(String(describing: seen))")
        #expect(seen?.detail == "HTTP 503 Service Unavailable" && seen?.nextAttempt != nil, "\(String(describing: seen))")
        #expect(seen?.reason == "127.0.0.1 is having trouble (HTTP 503); try again later")
        #expect(eventually(within: 60) { (try? journal.entry(id: id))??.state == .imported }, "the next attempt lands it")
    }
}
