import Foundation
import PiperCore

/// Why a link or file was not queued. The description is the sentence the user sees.
package enum EnqueueError: PiperError, Equatable {
    case unsupportedScheme(String)
    case notMedia(String, String?)
    case probeFailed(String, String)
    case fileNotFound(String)
    case notAFile(String)

    package var description: String {
        switch self {
        case .unsupportedScheme(let url): return "Only http and https links can be downloaded: \(url)"
        case .notMedia(let url, let type):
            return "Not a media link (\(type.map { "Content-Type \($0)" } ?? "no Content-Type")): \(url)"
        case .probeFailed(let url, let why): return "Cannot check \(url): \(why)"
        case .fileNotFound(let path): return "No such file: \(path)"
        case .notAFile(let path): return "Not a regular file: \(path)"
        }
    }

    package var category: ErrorCategory {
        switch self {
        case .probeFailed: return .unavailable
        default: return .badData
        }
    }
}
