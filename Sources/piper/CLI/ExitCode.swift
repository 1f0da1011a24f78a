import PiperCore

/// Process exit statuses, after BSD sysexits. The core names a failure's kind
/// (`ErrorCategory`); this is the one place that kind becomes a number.
enum ExitCode: Int32, Sendable {
    case success = 0
    case failure = 1
    case usage = 64         // EX_USAGE
    case dataError = 65     // EX_DATAERR: bad input data, not an article, no URL
    case unavailable = 69   // EX_UNAVAILABLE: backend, network, port or database unavailable
    case configuration = 78 // EX_CONFIG: no backend configured, a bad config file

    init(_ category: ErrorCategory) {
        switch category {
        case .usage: self = .usage
        case .badData: self = .dataError
        case .unavailable: self = .unavailable
        case .configuration: self = .configuration
        case .other: self = .failure
        }
    }
}

extension PiperError {
    /// The exit status this error ends the process with.
    var exitCode: ExitCode { ExitCode(category) }
}

extension ShareResult {
    /// 0 for a saved or queued share, else the status of its failure's kind.
    var exitCode: ExitCode { category.map(ExitCode.init) ?? .success }
}
