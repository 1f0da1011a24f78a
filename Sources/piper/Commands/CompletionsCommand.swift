import PiperCore

/// `piper completions bash|zsh|fish`: a shell completion script generated from the declarations.
struct CompletionsCommand: Command {
    static let name = "completions"
    static let abstract = "Print a shell completion script for bash, zsh or fish."
    static let discussion: String? = """
        bash: piper completions bash > ~/.local/share/bash-completion/completions/piper
        zsh:  piper completions zsh > ~/.zfunc/_piper  (with ~/.zfunc on $fpath)
        fish: piper completions fish > ~/.config/fish/completions/piper.fish
        """
    static let arguments: [ArgumentSpec] = [ArgumentSpec(name: "SHELL", help: "bash, zsh or fish.")]

    enum Shell: String, CaseIterable { case bash, zsh, fish }
    let shell: Shell

    init(_ parsed: Parsed<NoOptions>) throws {
        guard let shell = Shell(rawValue: parsed.positionals[0]) else {
            throw UsageError("completions takes bash, zsh or fish, not '\(parsed.positionals[0])'")
        }
        self.shell = shell
    }

    func run() async throws -> ExitCode {
        Output.out(Completions.script(for: shell, commands: allCommands), terminator: "")
        return .success
    }
}
