import Foundation

/// Process exit statuses, after BSD sysexits as the CLI conventions ask.
public enum ExitCode: Int32, Sendable {
    case success = 0
    case failure = 1
    case usage = 64        // EX_USAGE
    case dataError = 65    // EX_DATAERR: bad input data, not an article, no URL
    case unavailable = 69  // EX_UNAVAILABLE: backend or network unavailable
}

/// An error that knows the sentence a user sees and the exit status it maps to.
/// Anything else that reaches the CLI funnel is reported with its description and exit 1.
public protocol PiperError: Error, CustomStringConvertible {
    var exitCode: ExitCode { get }
}

/// A bad command line or a bad setting: exit 64.
public struct UsageError: PiperError, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
    public var exitCode: ExitCode { .usage }
}
