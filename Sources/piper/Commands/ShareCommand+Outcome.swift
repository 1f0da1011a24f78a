import Foundation
import PiperCore

/// How one shared item ended, and how `piper share` says so: outcome lines on stderr, the
/// reader URL or source on stdout, one JSON object with `--json`.
struct ShareOutcome {
    enum Status: String { case saved, queued, imported, duplicate, failed, error }

    let target: ShareTarget?
    let route: ShareRouting.Route?
    let status: Status
    let id: String?
    /// The reader URL of a saved article.
    let url: String?
    let libraryPath: String?
    let title: String?
    /// When a saved article's link stops working.
    let expires: Date?
    let error: String?
    let exitCode: ExitCode
    /// Lines for stderr, in order.
    let messages: [String]
    let clipboardNote: String?
    /// Said on stderr in every output mode: the reader link is one Instapaper cannot fetch.
    let warning: String?
    /// Media a saved article's page also names (said beside the outcome, and in `--json`).
    let alsoFound: String?

    init(target: ShareTarget?, result: ShareResult) {
        self.target = target
        switch result {
        case .saved(let reader, let title, let clipboard, let expires, let alsoFound):
            (route, status, id, url, libraryPath, self.title, error) = (.article, .saved, nil, reader.absoluteString, nil, title, nil)
            self.expires = expires
            self.alsoFound = alsoFound?.absoluteString
            if case .failed(let why) = clipboard { clipboardNote = "Note: the URL was not copied: \(why)" } else { clipboardNote = nil }
            let saved = expires.map { Messages.saved(until: Self.localTime($0)) } ?? Messages.saved
            messages = [saved] + (alsoFound.map { [Messages.alsoFound($0)] } ?? []) + (clipboardNote.map { [$0] } ?? [])
            warning = Self.reachabilityWarning(reader)
        case .mediaQueued(let receipt):
            route = .media
            expires = nil
            warning = nil
            alsoFound = nil
            id = receipt.id
            url = nil
            title = nil
            error = nil
            clipboardNote = nil
            libraryPath = receipt.alreadyInLibrary
            status = receipt.alreadyInLibrary == nil ? .queued : .duplicate
            messages = [receipt.message]
        case .failure(let failure):
            route = target.map(ShareRouting.route(of:)).flatMap { $0 == .undecided ? nil : $0 }
            (status, id, url, libraryPath, title, error, clipboardNote) = (.error, nil, nil, nil, nil, "\(failure)", nil)
            expires = nil
            warning = nil
            alsoFound = nil
            messages = ["\(failure)"] + (TerminalHint.after(failure).map { [$0] } ?? [])
        }
        exitCode = result.exitCode
    }

    /// A media share followed with `--wait` to where it ended.
    init(target: ShareTarget, receipt: MediaReceipt, waited: MediaWaitOutcome) {
        self.target = target
        route = .media
        id = receipt.id
        url = nil
        title = nil
        expires = nil
        warning = nil
        alsoFound = nil
        clipboardNote = nil
        switch waited {
        case .imported(let path, let note):
            (status, libraryPath, error, exitCode) = (.imported, path, nil, .success)
            messages = [path.map(Messages.inLibrary) ?? "In the library"] + (note.map { ["  \($0)"] } ?? [])
        case .duplicate(let path):
            (status, libraryPath, error, exitCode) = (.duplicate, path, nil, .success)
            messages = [path.map(Messages.alreadyInLibrary) ?? "Already in the library"]
        case .failed(let reason):
            (status, libraryPath, error, exitCode) = (.failed, nil, reason, .failure)
            messages = ["Failed: \(reason)"]
        case .later(let reason):
            (status, libraryPath, error, exitCode) = (.queued, nil, reason, .unavailable)
            messages = [reason]
        case .stillQueued(let seconds):
            let why = "no agent started the download within \(seconds) s; it stays queued for 'piper agent'"
            (status, libraryPath, error, exitCode) = (.queued, nil, why, .failure)
            messages = ["Still queued: \(why)"]
        }
    }

    /// stdout carries data: the reader URL of a saved article, the library path or source of media.
    var stdoutLine: String? {
        if let url { return url }
        if route == .media { return libraryPath ?? target?.text }
        return nil
    }

    var report: ShareReport {
        ShareReport(id: id, route: route?.rawValue, status: status.rawValue, source: target?.text, url: url,
                    libraryPath: libraryPath, title: title, expires: expires.map { ISO8601DateFormatter().string(from: $0) }, error: error,
                    alsoFound: alsoFound)
    }

    /// The worse of two exit statuses: any failure beats success; among failures, a general
    /// failure (1) beats unavailable (69), which beats bad data (65); usage (64) beats all.
    static func worse(_ a: ExitCode, _ b: ExitCode) -> ExitCode {
        func rank(_ code: ExitCode) -> Int {
            switch code {
            case .success: return 0
            case .dataError: return 1
            case .unavailable: return 2
            case .configuration: return 3
            case .failure: return 4
            case .usage: return 5
            }
        }
        return rank(b) > rank(a) ? b : a
    }
}

/// `--json` output, one object per item: every key present, absent values null.
struct ShareReport: Encodable {
    let id: String?
    let route: String?
    let status: String
    let source: String?
    let url: String?
    let libraryPath: String?
    let title: String?
    /// ISO 8601, UTC.
    let expires: String?
    let error: String?
    /// Media a saved article's page also names ("share with --as media" downloads it).
    let alsoFound: String?

    enum CodingKeys: String, CodingKey { case id, route, status, source, url, libraryPath, title, expires, error, alsoFound }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)      // Optional.encode writes null
        try c.encode(route, forKey: .route)
        try c.encode(status, forKey: .status)
        try c.encode(source, forKey: .source)
        try c.encode(url, forKey: .url)
        try c.encode(libraryPath, forKey: .libraryPath)
        try c.encode(title, forKey: .title)
        try c.encode(expires, forKey: .expires)
        try c.encode(error, forKey: .error)
        try c.encode(alsoFound, forKey: .alsoFound)
    }
}
