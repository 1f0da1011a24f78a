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
    LibraryCommand.self,
    CompletionsCommand.self,
]

let piperVersion = "0.1.0"
