import Foundation

// Presentation only: the funnel parses, runs one use case and maps errors to exit statuses.
// No C callbacks or Dispatch handlers live here (Swift 6 would infer them @MainActor).
// --version, --help and the like are answered before the first await: no worker threads.
if let status = Funnel.immediate(CommandLine.arguments, commands: allCommands, version: piperVersion) { exit(status) }
await Funnel.mainThenExit(CommandLine.arguments, commands: allCommands, version: piperVersion)
