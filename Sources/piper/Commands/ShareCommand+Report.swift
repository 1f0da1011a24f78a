import Foundation
import PiperCore

/// How a share's result reaches the user: one line on stderr and the URL on stdout, or one JSON
/// object with `--json`; a warning when the link points somewhere Instapaper cannot reach.
extension ShareCommand {
    func report(_ result: ShareResult) throws {
        if case .saved(let url, _, _, _) = result, let warning = Self.reachabilityWarning(url) { Output.err(warning) }
        if json {
            try Output.json(ShareReport(result))
            if case .saved(_, _, .failed(let why), _) = result { Output.err("Note: the URL was not copied: \(why)") }
            return
        }
        switch result {
        case .saved(let url, _, let clipboard, let expires):
            Output.err(expires.map { Messages.saved(until: Self.localTime($0)) } ?? Messages.saved)
            Output.out(url.absoluteString)
            if case .failed(let why) = clipboard { Output.err("Note: the URL was not copied: \(why)") }
        case .mediaQueued(let receipt):
            Output.err(receipt.message)
            Output.out(receipt.url)
        case .failure(let error):
            Output.err("\(error)")
        }
    }

    /// The warning for a reader link on a loopback or private host, else nil.
    static func reachabilityWarning(_ url: URL) -> String? {
        guard let host = url.host, let kind = PrivateHost.kind(of: host) else { return nil }
        let what = kind == .loopback ? "a loopback address" : "a private address"
        return "Warning: \(host) is \(what); Instapaper cannot fetch this link. "
            + "Point --backend (or PIPER_BACKEND_URL) at a public server, or start it with --public-url."
    }

    /// `14:32` in the local time zone, with the date in front when it is not today.
    static func localTime(_ date: Date, now: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone.current
        formatter.dateFormat = Calendar.current.isDate(date, inSameDayAs: now) ? "HH:mm" : "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}

/// `--json` output: exactly `status`, `url`, `title`, `expires` (ISO 8601, UTC) and `error`;
/// absent values are null.
struct ShareReport: Encodable {
    let status: String
    let url: String?
    let title: String?
    let expires: String?
    let error: String?

    init(status: String, url: String?, title: String?, expires: String? = nil, error: String?) {
        (self.status, self.url, self.title, self.expires, self.error) = (status, url, title, expires, error)
    }

    init(_ result: ShareResult) {
        switch result {
        case .saved(let url, let title, _, let expires):
            self.init(status: "saved", url: url.absoluteString, title: title, expires: expires.map(Self.iso8601), error: nil)
        case .mediaQueued(let r): self.init(status: "queued", url: r.url, title: nil, error: nil)
        case .failure(let e): self.init(status: "error", url: nil, title: nil, error: "\(e)")
        }
    }

    static func iso8601(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

    enum CodingKeys: String, CodingKey { case status, url, title, expires, error }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(status, forKey: .status)
        try c.encode(url, forKey: .url)      // Optional.encode writes null
        try c.encode(title, forKey: .title)
        try c.encode(expires, forKey: .expires)
        try c.encode(error, forKey: .error)
    }
}

/// Progress lines on stderr (silent with --json).
struct StderrReporter: ShareReporter {
    let quiet: Bool
    func progress(_ message: String) {
        if !quiet { Output.err(message) }
    }
}
