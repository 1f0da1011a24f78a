import Foundation

/// What kind of failure an error is. The core names the kind; the command-line tool maps each
/// kind to its exit status (BSD sysexits), so the core carries no process conventions.
public enum ErrorCategory: String, Sendable, Equatable, CaseIterable {
    /// A bad command line or a bad option value.
    case usage
    /// The input data is wrong: not an article, no URL, a malformed file.
    case badData
    /// A service is unavailable: the backend, the network, a port, a database.
    case unavailable
    /// A setting is missing or wrong: no backend configured, an unknown config key.
    case configuration
    /// Anything else.
    case other
}

/// An error that knows the sentence a user sees and the kind of failure it is.
/// Anything else that reaches the CLI funnel is reported with its description as `.other`.
public protocol PiperError: Error, CustomStringConvertible {
    /// The kind of failure, which the CLI maps to an exit status.
    var category: ErrorCategory { get }
}

/// A bad command line or a bad setting.
public struct UsageError: PiperError, Equatable {
    /// The sentence the user sees.
    public let message: String
    /// An error with this sentence.
    public init(_ message: String) { self.message = message }
    /// The sentence a user sees.
    public var description: String { message }
    /// A usage error.
    public var category: ErrorCategory { .usage }
}
