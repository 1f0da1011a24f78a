import Foundation

/// A point in the agent's work where a crash must leave nothing lost: the crash tests stop an
/// agent at one and kill it there with SIGKILL.
public enum AgentCheckpoint: String, Sendable, CaseIterable {
    /// The file is complete in `downloads/` and journaled, not yet landed.
    case downloaded
    /// The file is in `inbox/` and journaled, not yet handed to the importer.
    case landed
    /// An import into a library on another file system has copied its first chunk into its
    /// hidden temp file (`TemporaryFile`).
    case libraryCopy = "library-copy"
}

/// Hears each checkpoint the agent and its importer reach, on the thread that reached it. The
/// `piper` tool passes none; the crash tests' own agent (`Tests/CheckpointAgent`) implements it
/// to stop there.
public protocol AgentCheckpoints: Sendable {
    func reached(_ checkpoint: AgentCheckpoint)
}
