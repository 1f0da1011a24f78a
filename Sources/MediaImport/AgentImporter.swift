import Foundation
import PiperCore

/// The agent's port to the import pipeline: bring every complete file in `inbox/` into the
/// library. Must be idempotent (the library dedups by SHA-256): after a crash the agent may
/// run it again over files it already imported.
public protocol InboxImporting {
    func importInbox() throws
}

/// Builds the importer the agent uses. The library importer (`LibraryImporter`) plugs in
/// here; until it is available the agent lands files and leaves them `landed` for it.
public enum AgentImporterFactory {
    public static func make(state: StateFolder) throws -> (any InboxImporting)? {
        nil
    }
}
