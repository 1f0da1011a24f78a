import Extraction
import Foundation
import PiperCore

extension ExtractCommand {
    /// `--tuning FILE`'s thresholds: the standard ones with FILE's overrides (a JSON object by
    /// field name), or the standard ones without the option. For developing the piper mode.
    static func tuning(_ path: String?) throws -> Tuning {
        guard let path else { return .standard }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("--tuning: cannot read '\(path)'")
        }
        do {
            return try Tuning.standard.overriding(json: data)
        } catch {
            throw UsageError("--tuning: \(path): \(error)")
        }
    }
}
