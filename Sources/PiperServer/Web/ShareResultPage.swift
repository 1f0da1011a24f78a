import Foundation

/// The page a browser sees after a share: the reader URL in a selectable field with a Copy
/// button, the download under way, or the failure's reason.
enum ShareResultPage {
    static func render(_ record: ShareRecord, fileName: String?) -> HTTPResponse {
        let e = WebPage.e
        let body: String
        switch record.status {
        case .saved:
            let until = record.expires.map { "<p class=\"muted\">The link works until \(e(WebPage.time($0))).</p>" } ?? ""
            body = """
                <h1 id="outcome">Saved — paste into Instapaper</h1>
                <p>\(e(record.title ?? ""))</p>
                <input type="text" id="reader-url" readonly value="\(e(record.url ?? ""))">
                <button type="button" data-copy="reader-url" hidden>Copy</button>
                <p><a href="\(e(record.url ?? ""))">Open the reader page</a></p>\(until)
                """
        case .queued:
            let name = fileName ?? record.source.flatMap { URL(string: $0)?.lastPathComponent } ?? "the file"
            let line = record.title.map { "Already in your library as \($0)" } ?? "Downloading \(name) — it will be in your library"
            body = """
                <h1 id="outcome">\(e(line))</h1>
                <p class="muted">Follow it on the <a href="/">home page</a>.</p>
                """
        case .failed:
            body = """
                <h1 id="outcome">Not shared</h1>
                <p class="error" id="reason">\(e(record.error ?? record.message))</p>
                <p><a href="/">Back</a></p>
                """
        }
        return WebPage.render(record.status == .failed ? "Not shared" : "Shared", body, status: record.httpStatus, device: record.device)
    }
}
