import PiperCore
import PiperNet

/// The save port for `piper share`: the configured backend, or, when none is named anywhere,
/// one whose every save says how to run or name a backend (exit 78).
func makeSaveClient(config: Config) -> any SaveClient {
    config.isBackendConfigured ? HTTPSaveClient(backendBaseURL: config.backendBaseURL) : UnconfiguredBackend()
}

/// The terminal's next step after a message written for the phone app.
enum TerminalHint {
    static let connectX = "Run: piper login --cookies cookies.txt (a Netscape cookies.txt export from your browser)"

    /// The hint line that follows `error`'s sentence, if it has one.
    static func after(_ error: any Error) -> String? {
        (error as? ShareFailure) == .connectX ? connectX : nil
    }
}
