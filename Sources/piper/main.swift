import Foundation

// Presentation only: the funnel parses, runs one use case and maps errors to exit statuses.
// No C callbacks or Dispatch handlers live here (Swift 6 would infer them @MainActor).
let status = await Funnel.main(CommandLine.arguments, commands: allCommands, version: piperVersion)
exit(status)
