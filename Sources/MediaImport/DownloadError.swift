import Foundation
import PiperCore

/// Why a download stopped for good. The description is the sentence the journal and the user see.
package enum DownloadError: PiperError, Equatable {
    case failed(String)
    /// The server could not be reached or kept failing (network errors, 5xx) for every attempt:
    /// worth trying again much later, keeping the partial file.
    case unreachable(String)
    /// The transfer fell below the speed floor: it gives its slot up and is tried again soon,
    /// keeping the partial file.
    case stalled(String)
    case cannotWrite(String, Int32)

    package var description: String {
        switch self {
        case .failed(let reason), .unreachable(let reason), .stalled(let reason): return reason
        case .cannotWrite(let path, let code): return "Cannot write \(path): \(String(cString: strerror(code)))"
        }
    }
    package var category: ErrorCategory { .other }

    /// The reason a download stopped because the user cancelled it.
    package static let cancelled = "Cancelled"
}
