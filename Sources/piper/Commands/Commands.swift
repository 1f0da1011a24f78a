/// Every subcommand, in the order `piper --help` lists them. One line per command.
let allCommands: [any Command.Type] = [
    ConfigCommand.self,
    ServeCommand.self,
]

let piperVersion = "0.1.0"
