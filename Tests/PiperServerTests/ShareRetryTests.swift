import Foundation
import PiperTestSupport
import Testing
@testable import PiperServer

/// A job says the same state and reason on every surface (`/api/shares`, the home page,
/// `piper downloads`), and Try again (`POST /shares/ID/retry`) runs it again once its site has
/// recovered: against a real `piper serve`, its agent, and a local media server answering 503.
@Suite(.ownThread, .timeLimit(.minutes(3)))
struct ShareRetryTests {
    /// Two quick attempts, then the job is put off for an hour: long enough that only a retry
    /// brings it back within the test.
    static let environment = ["PIPER_DOWNLOAD_ATTEMPTS": "2", "PIPER_DOWNLOAD_RETRY_BASE_MS": "10",
                              "PIPER_DOWNLOAD_RETRY_MAX_MS": "20", "PIPER_DOWNLOAD_LATER_SECONDS": "3600"]

    static func share(_ server: ShareServer, id: String) async throws -> [String: Any]? {
        let reply = try await Client.send("GET", server.url + "/api/shares", headers: try server.bearer)
        return (try reply.json()["shares"] as? [[String: Any]])?.first { $0["id"] as? String == id }
    }

    /// An mp3 share whose host answers 503 to every request, followed in `/api/shares` until it
    /// is postponed: the host (to bring back), the file it will serve, the server, the share's
    /// id, its job and its listing.
    struct Postponed {
        let host: TestHTTPServer
        let file: [UInt8]
        let server: ShareServer
        let id: String
        let job: String
        let listed: [String: Any]
    }

    static func postponedShare() async throws -> Postponed {
        let host = try TestHTTPServer()
        let file = try Array(Data(contentsOf: ShareRouteTests.media.appendingPathComponent("sample.mp3")))
        try host.route("/ep.mp3", .init(body: file), faults: [.status(503, times: 1_000_000)])
        let server = try ShareServer(["--allow-host", "127.0.0.1"], environment: environment)
        let reply = try await server.shareJSON(["url": host.url("/ep.mp3").absoluteString], headers: try server.bearer)
        #expect(reply.status == 202, "\(reply.text)")
        let id = try #require(try reply.json()["id"] as? String, "\(reply.text)")
        let job = try #require(try reply.json()["job"] as? String)
        var listed: [String: Any] = [:]
        let postponed = try await eventually(within: 60) {
            listed = try await share(server, id: id) ?? [:]
            return listed["status"] as? String == "postponed"
        }
        try #require(postponed, "the share says it is postponed: \(listed)")
        return Postponed(host: host, file: file, server: server, id: id, job: job, listed: listed)
    }

    @Test func aDownloadWhoseServerAnswers503IsPostponedWithItsReasonEverywhereThenRetriedItLands() async throws {
        let made = try await Self.postponedShare()
        let (host, file, server, id, job) = (made.host, made.file, made.server, made.id, made.job)
        var listed = made.listed
        let reason = try #require(listed["reason"] as? String)
        #expect(reason == "127.0.0.1 is having trouble (HTTP 503); try again later", "\(listed)")
        #expect((listed["detail"] as? String)?.contains("HTTP 503 Service Unavailable") == true, "\(listed)")
        let next = try #require(listed["nextAttempt"] as? String)
        let due = try #require(ISO8601DateFormatter().date(from: next), "ISO 8601 UTC: \(next)")
        #expect(due > Date().addingTimeInterval(3000) && next.hasSuffix("Z"))
        #expect(listed["live"] as? Bool == true && listed["retry"] as? String == "/shares/\(id)/retry")
        #expect(listed["state"] as? String == "postponed: 127.0.0.1 is having trouble (HTTP 503); Piper tries again at \(WebPage.time(due))")

        // The CLI on the server's state folder says the same state, reason and time.
        let cli = try PiperBinaryRun.piper(["downloads", "--json"], home: server.home)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? [[String: Any]], "\(cli.stderr)")
        let row = try #require(rows.first { $0["id"] as? String == job })
        #expect(row["status"] as? String == "postponed" && row["state"] as? String == "queued", "\(row)")
        #expect(row["reason"] as? String == reason && row["nextAttempt"] as? String == next, "\(row)")
        #expect((row["detail"] as? String)?.contains("HTTP 503 Service Unavailable") == true, "\(row)")
        let text = try PiperBinaryRun.piper(["downloads"], home: server.home, timeZone: "Asia/Kolkata")
        #expect(text.stdout.contains("\(job)  postponed"), "\(text.stdout)")
        #expect(text.stdout.contains("    127.0.0.1 is having trouble (HTTP 503); Piper tries again at \(Self.clock(due, zone: "Asia/Kolkata"))"),
                "the CLI's own time zone: \(text.stdout)")

        // The home page: the same line, its time as a <time> the page's script shows locally, a Try again button.
        let home = try await Client.send("GET", server.url + "/", headers: ["Cookie": try await server.pair().cookie, "Accept": "text/html"])
        #expect(home.text.contains("<time datetime=\"\(next)\">\(WebPage.time(due))</time>"), "\(home.text)")
        #expect(home.text.contains("<form method=\"post\" action=\"/shares/\(id)/retry\" class=\"retry\">"), "\(home.text)")
        #expect(home.text.contains("<details class=\"detail\"><summary>Details</summary><code>"), "\(home.text)")

        // The share's own result page says it too, with its Try again.
        let result = try await Client.send("GET", server.url + "/shares/\(id)", headers: try server.bearer.merging(["Accept": "text/html"]) { $1 })
        #expect(result.text.contains("<span class=\"state\">postponed: 127.0.0.1 is having trouble (HTTP 503); Piper tries again at <time"),
                "\(result.text)")
        #expect(result.text.contains("action=\"/shares/\(id)/retry\""), "\(result.text)")

        // The site recovers; Try again queues it now, and it lands in the library.
        try host.route("/ep.mp3", .init(body: file))
        let retried = try await Client.send("POST", server.url + "/shares/\(id)/retry", headers: try server.bearer)
        #expect(retried.status == 200, "\(retried.text)")
        #expect(["queued", "downloading", "imported"].contains(try retried.json()["status"] as? String ?? ""), "\(retried.text)")
        let landed = try await eventually(within: 60) {
            listed = try await Self.share(server, id: id) ?? [:]
            return listed["status"] as? String == "imported"
        }
        #expect(landed, "the retried job lands: \(listed)")
        #expect(listed["reason"] is NSNull && listed["retry"] is NSNull && listed["live"] as? Bool == false, "\(listed)")

        // Nothing left to try again: refused with the reason, as JSON and as a page.
        let again = try await Client.send("POST", server.url + "/shares/\(id)/retry", headers: try server.bearer)
        #expect(again.status == 409, "\(again.text)")
        #expect((try again.json()["error"] as? String)?.hasPrefix("Only a failed share") == true, "\(again.text)")
        let unknown = try await Client.send("POST", server.url + "/shares/nosuchshare/retry", headers: try server.bearer)
        #expect(unknown.status == 404, "\(unknown.text)")
    }

    /// A link whose site failed is shared again by Try again, under the same id, from a browser's
    /// form (303 back home) once the site works; a cross-site POST is refused as a share is.
    @Test func aFailedLinkIsSharedAgainFromTheBrowsersForm() async throws {
        let site = try ShareSite.start(extra: ["/later": .html("down for maintenance", status: 503)])
        let server = try ShareServer(["--allow-host", "127.0.0.1"])
        let link = site.url("/later").absoluteString
        let failed = try await server.shareJSON(["url": link], headers: try server.bearer)
        let id = try #require(try failed.json()["id"] as? String, "\(failed.text)")
        #expect(try failed.json()["status"] as? String == "failed", "\(failed.text)")
        #expect(try failed.json()["reason"] as? String == "127.0.0.1 is having trouble (HTTP 503); try again later", "\(failed.text)")
        #expect(try failed.json()["error"] as? String == "127.0.0.1 is having trouble (HTTP 503); try again later")
        #expect(try failed.json()["detail"] as? String == "The page \(link) answered HTTP 503", "\(failed.text)")
        #expect(try failed.json()["retry"] as? String == "/shares/\(id)/retry")
        let resultPage = try await Client.send("GET", server.url + "/shares/\(id)", headers: try server.bearer.merging(["Accept": "text/html"]) { $1 })
        #expect(resultPage.text.contains("<details id=\"detail\"><summary>Details</summary><code>The page \(link) answered HTTP 503</code>"),
                "\(resultPage.text)")
        #expect(resultPage.text.contains("action=\"/shares/\(id)/retry\""))

        try site.setRoute("/later", .html(ShareSite.articleHTML))
        let cookie = try await server.pair().cookie
        let crossSite = try await Client.send("POST", server.url + "/shares/\(id)/retry",
                                              headers: ["Cookie": cookie, "Accept": "text/html", "Sec-Fetch-Site": "cross-site"])
        #expect(crossSite.status == 403, "\(crossSite.text)")
        let form = try await Client.send("POST", server.url + "/shares/\(id)/retry",
                                         headers: ["Cookie": cookie, "Accept": "text/html", "Sec-Fetch-Site": "same-origin"])
        // The 303 to the home page is followed (URLSession follows redirects; the cookie goes along).
        #expect(form.status == 200 && form.text.contains("<li data-share=\"\(id)\"><strong>A shared article</strong>"), "\(form.text)")
        let listed = try #require(try await Self.share(server, id: id))
        #expect(listed["status"] as? String == "saved" && (listed["url"] as? String)?.hasPrefix(server.url) == true, "\(listed)")
        #expect(listed["reason"] is NSNull && listed["retry"] is NSNull)
    }

    /// `14:05` in `zone` (with the date when it is not today there), as `piper downloads` writes it.
    static func clock(_ date: Date, zone: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        formatter.dateFormat = calendar.isDate(date, inSameDayAs: Date()) ? "HH:mm" : "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
