import Foundation
import PiperCore

/// What one share carries: every http(s) link in its url, text and title (in order, each
/// once: Android puts "Two for you: https://…/a.html and also https://…/ep44.mp3" in `text`),
/// and every uploaded file. Each becomes its own job, as `piper share` makes of its arguments.
struct ShareItems: Sendable {
    /// More than this is refused with the reason: a share sheet sends a few, and each link is a
    /// page load or a download the server starts.
    static let limit = 20

    let items: [String]
    let links: [URL]
    let files: [ShareUpload.File]

    init(items: [String], files: [ShareUpload.File]) {
        self.items = items
        links = ShareInput(items).targets.compactMap { target in
            if case .link(let url) = target { return url }
            return nil   // a path in a client's text names a file on the server: never shared
        }
        self.files = files
    }

    var count: Int { links.count + files.count }

    /// The answer's status for several outcomes: 200 when one was saved, else 202 when one was
    /// queued, else the first's (a failure's).
    static func status(of records: [ShareRecord]) -> Int {
        guard records.count > 1 else { return records.first?.httpStatus ?? 500 }
        if records.contains(where: { $0.status == .saved }) { return 200 }
        if records.contains(where: { $0.status == .queued }) { return 202 }
        return records.first?.httpStatus ?? 500
    }
}
