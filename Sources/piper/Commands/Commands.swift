import Foundation
import PiperCore

/// Every subcommand, in the order `piper --help` lists them. One line per command.
let allCommands: [any Command.Type] = [
    ConfigCommand.self,
    ExtractCommand.self,
    ParseCommand.self,
    ShareCommand.self,
    LoginCommand.self,
    LogoutCommand.self,
    ServeCommand.self,
    PairCommand.self,
    DevicesCommand.self,
    AgentCommand.self,
    DownloadsCommand.self,
    FollowCommand.self,
    FollowsCommand.self,
    UnfollowCommand.self,
    LibraryCommand.self,
    CompletionsCommand.self,
]

let piperVersion = "0.1.0"

/// Loads the settings and says on stderr what is odd about the config file (unknown keys, the
/// old location), once, before the command goes on.
func loadConfig(backendFlag: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Config {
    let config = try Config.load(backendFlag: backendFlag, environment: environment)
    for notice in config.notices { Output.err(notice) }
    return config
}
