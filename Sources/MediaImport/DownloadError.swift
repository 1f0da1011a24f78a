import Foundation
import PiperCore

/// Why a download stopped for good. The description is the sentence the journal and the user see.
public enum DownloadError: PiperError, Equatable {
    case failed(String)
    case cannotWrite(String, Int32)

    public var description: String {
        switch self {
        case .failed(let reason): return reason
        case .cannotWrite(let path, let code): return "Cannot write \(path): \(String(cString: strerror(code)))"
        }
    }
    public var category: ErrorCategory { .other }
}
