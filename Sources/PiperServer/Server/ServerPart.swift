import Foundation

/// One long-lived part of a running server (the database, the agent, the browser, the proxy,
/// the HTTP listener): what `ServerApp` starts in its declared order, asks for `/healthz`,
/// and stops in reverse order. A part built outside PiperServer (the CLI's browser pool) is
/// handed in as a value conforming to it.
public protocol ServerPart: AnyObject, Sendable {
    /// A short name for `/healthz` and the stop report: "database", "agent", "http".
    var name: String { get }
    /// Starts the part; a throw stops the server's start (the parts already started are stopped).
    func start() throws
    /// How the part is doing now, cheaply (`/healthz` asks on every call).
    func health() -> PartHealth
    /// Stops the part, taking no longer than `deadline` where it can wait (a part that must
    /// end something at once, such as a child process, ends it).
    func stop(deadline: Date)
}

/// A part's health as `/healthz` reports it: healthy or not, and a few words.
public struct PartHealth: Sendable, Equatable {
    public var healthy: Bool
    public var detail: String

    public init(healthy: Bool, detail: String) {
        self.healthy = healthy
        self.detail = detail
    }

    public static func ok(_ detail: String) -> PartHealth { PartHealth(healthy: true, detail: detail) }
    public static func failing(_ detail: String) -> PartHealth { PartHealth(healthy: false, detail: detail) }
}

/// One part's line of a health report.
public struct PartReport: Sendable, Equatable, Codable {
    public var name: String
    public var healthy: Bool
    public var detail: String
}

/// How long each part took to stop, in stop order (`ServerApp.stop`).
public struct StopReport: Sendable {
    public var parts: [(name: String, seconds: Double)] = []
    /// Requests still under way when the grace period ended, answered 503 with `Retry-After`.
    public var answeredRetry = 0
    public var seconds: Double { parts.reduce(0) { $0 + $1.seconds } }

    /// "stopped in 0.21 s (http 0.01 s, agent 0.20 s, database 0.00 s)".
    public var summary: String {
        let each = parts.map { "\($0.name) \(String(format: "%.2f", $0.seconds)) s" }.joined(separator: ", ")
        let retry = answeredRetry > 0 ? "; \(answeredRetry) request\(answeredRetry == 1 ? "" : "s") answered 503, retry" : ""
        return "stopped in \(String(format: "%.2f", seconds)) s (\(each))\(retry)"
    }
}
