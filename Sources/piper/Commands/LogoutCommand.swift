import Foundation
import PiperCore
import PiperNet

/// `piper logout`: forgets the stored X cookies.
struct LogoutCommand: Command {
    static let name = "logout"
    static let abstract = "Disconnect your X account: delete the stored X cookies."
    init(_ parsed: Parsed<NoOptions>) throws {}

    func run() async throws -> ExitCode {
        let config = try loadConfig()
        if try FileCookieStore(state: config.state).remove() {
            Output.out("Disconnected your X account: the stored cookies are deleted.")
        } else {
            Output.out("No X account was connected.")
        }
        return .success
    }
}
