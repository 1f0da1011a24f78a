import Foundation
import PiperCore

/// The page a browser sees after a share: the reader URL in a selectable field with a Copy
/// button, the download under way, or the failure's reason.
enum ShareResultPage {
    /// One share's page, or for several items one line each (and a reader URL to copy for each
    /// saved article), headed by how many went where.
    /// `progress`: a media share's job as it stands now (`ShareRunner.progress`), said under its
    /// line as the home page says it (postponed with the reason and the time, Try again).
    static func render(_ records: [ShareRecord], progress: (ShareRecord) -> MediaJobState? = { _ in nil }) -> HTTPResponse {
        guard records.count > 1 else {
            let record = records.first ?? failedEmpty
            return render(record, fileName: nil, progress: progress(record))
        }
        let e = WebPage.e
        let lines = records.enumerated().map { index, record -> String in
            let name = record.source.flatMap { URL(string: $0)?.lastPathComponent } ?? record.source ?? "an item"
            switch record.status {
            case .saved:
                return "<li class=\"saved\"><strong>Saved — paste into Instapaper</strong>: \(e(record.title ?? ""))<br>"
                    + "<input type=\"text\" id=\"reader-url-\(index)\" readonly value=\"\(e(record.url ?? ""))\">"
                    + "<button type=\"button\" data-copy=\"reader-url-\(index)\" hidden>Copy</button></li>"
            case .queued, .duplicate:
                return "<li class=\"queued\">\(e(queuedLine(record, fileName: nil)))\(jobState(record, progress(record)))</li>"
            case .failed:
                return "<li class=\"failed\">Not shared: \(e(name)): <span class=\"error\">\(e(record.error ?? record.message))</span></li>"
            }
        }.joined()
        let failed = records.filter { $0.status == .failed }.count
        let heading = failed == 0 ? "Shared \(records.count) items" : "Shared \(records.count - failed) of \(records.count) items"
        let body = """
            <h1 id="outcome">\(e(heading))</h1>
            <ul class="shares" id="items">\(lines)</ul>
            <p class="muted">Follow them on the <a href="/">home page</a>.</p>
            """
        return WebPage.render("Shared", body, status: ShareItems.status(of: records), device: records.first?.device)
    }

    private static let failedEmpty = ShareRecord(id: "", created: Date(), device: "", source: nil, status: .failed,
                                                 message: "No URL found in share input", httpStatus: 400)

    /// What became of a media share: "Downloading ep43.mp3 (found on episode43.html)",
    /// "Uploaded ep42.mp3", or where it already is.
    static func queuedLine(_ record: ShareRecord, fileName: String?) -> String {
        if let path = record.libraryPath { return "Already in your library as \(path)" }
        let name = fileName ?? record.source.flatMap { URL(string: $0)?.lastPathComponent } ?? record.source ?? "the file"
        if record.uploaded == true { return "Uploaded \(name) — it will be in your library" }
        if let media = record.media { return "Downloading \(media) (found on \(name)) — it will be in your library" }
        return "Downloading \(name) — it will be in your library"
    }

    /// A shared podcast feed's offer to follow the show (`POST /follows`): its newest episodes
    /// were taken once; following brings each new one as it comes.
    static func followForm(_ record: ShareRecord) -> String {
        guard record.feed == true, let source = record.source, URL(string: source) != nil else { return "" }
        return "<form method=\"post\" action=\"/follows\" id=\"follow-form\"><input type=\"hidden\" name=\"url\" value=\"\(WebPage.e(source))\">"
            + "<button type=\"submit\" id=\"follow\">Follow this show</button></form>"
            + "<p class=\"muted\">Following brings each new episode as it comes.</p>"
    }

    /// The media a saved article's page also names, said under the reader URL.
    static func alsoFound(_ record: ShareRecord) -> String {
        guard let media = record.alsoFound.flatMap(URL.init(string:)) else { return "" }
        return "<p class=\"muted\" id=\"also-found\">\(WebPage.e(Messages.alsoFound(media)))</p>"
    }

    /// Where a media share's job stands now, for its line: "" until the job has a state.
    static func jobState(_ record: ShareRecord, _ progress: MediaJobState?) -> String {
        guard record.status == .queued, let progress else { return "" }
        return "<div class=\"job\" id=\"job-\(WebPage.e(record.id))\">\(ShareState(record, progress: progress, now: Date()).html)</div>"
    }

    static func render(_ record: ShareRecord, fileName: String?, progress: MediaJobState? = nil) -> HTTPResponse {
        let e = WebPage.e
        let body: String
        switch record.status {
        case .saved:
            let until = record.expires.map { "<p class=\"muted\">The link works until \(WebPage.timeHTML($0)).</p>" } ?? ""
            body = """
                <h1 id="outcome">Saved — paste into Instapaper</h1>
                <p>\(e(record.title ?? ""))</p>
                <input type="text" id="reader-url" readonly value="\(e(record.url ?? ""))">
                <button type="button" data-copy="reader-url" hidden>Copy</button>
                <p><a href="\(e(record.url ?? ""))">Open the reader page</a></p>\(until)\(alsoFound(record))
                """
        case .queued, .duplicate:
            let line = queuedLine(record, fileName: fileName)
            body = """
                <h1 id="outcome">\(e(line))</h1>
                \(jobState(record, progress))\(followForm(record))<p class="muted">Follow it on the <a href="/">home page</a>.</p>
                """
        case .failed:
            // The way out where there is one: X cookies are connected on a page of the server's;
            // a link can be tried again. The technical detail is behind a disclosure.
            let state = ShareState(record, progress: nil, now: Date())
            let connect = state.actionPath == FailureMessage.connectXPath
                ? "<p><a href=\"\(ConnectXPage.path)\" id=\"connect-x\">Connect your X account</a></p>" : ""
            let detail = state.detail.map { "<details id=\"detail\"><summary>Details</summary><code>\(e($0))</code></details>" } ?? ""
            let retry = state.retryPath.map {
                "<form method=\"post\" action=\"\(e($0))\" class=\"retry\"><button type=\"submit\">Try again</button></form>"
            } ?? ""
            body = """
                <h1 id="outcome">Not shared</h1>
                <p class="error" id="reason">\(e(record.error ?? record.message))</p>
                \(detail)\(connect)\(retry)<p><a href="/">Back</a></p>
                """
        }
        return WebPage.render(record.status == .failed ? "Not shared" : "Shared", body, status: record.httpStatus, device: record.device)
    }
}
