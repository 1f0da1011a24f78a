import Dispatch
import Foundation

extension LibraryImporter {
    /// Watches the inbox and imports whatever lands there, then scans once for files that were
    /// already waiting. Runs imports on one serial queue (bursts of events coalesce into one
    /// run) and hands each run's outcomes to `onOutcomes`, or a failed run's error (lock,
    /// catalog) to `onError`. `hints` as for `importPending`.
    public func watch(hints: @escaping @Sendable (String) -> ImportHints? = { _ in nil },
                      onError: @escaping @Sendable (any Error) -> Void = { _ in },
                      onOutcomes: @escaping @Sendable ([ImportOutcome]) -> Void) throws -> InboxWatcher {
        let runner = ImportRunner(importer: self, hints: hints, onOutcomes: onOutcomes, onError: onError)
        let watcher = InboxWatcher(inbox: state.inbox) { _ in runner.request() }
        try watcher.start()
        runner.request()
        return watcher
    }
}

/// Coalesces import requests: at most one run queued behind the current one.
/// `@unchecked Sendable`: `queued` is only touched on `queue`.
final class ImportRunner: @unchecked Sendable {
    private let importer: LibraryImporter
    private let hints: @Sendable (String) -> ImportHints?
    private let onOutcomes: @Sendable ([ImportOutcome]) -> Void
    private let onError: @Sendable (any Error) -> Void
    private let queue = DispatchQueue(label: "piper.import-runner")
    private let work = DispatchQueue(label: "piper.import-work")
    private var queued = false

    init(importer: LibraryImporter, hints: @escaping @Sendable (String) -> ImportHints?,
         onOutcomes: @escaping @Sendable ([ImportOutcome]) -> Void, onError: @escaping @Sendable (any Error) -> Void) {
        self.importer = importer
        self.hints = hints
        self.onOutcomes = onOutcomes
        self.onError = onError
    }

    func request() {
        queue.async {
            guard !self.queued else { return }
            self.queued = true
            self.work.async {
                self.queue.sync { self.queued = false }
                do {
                    let outcomes = try self.importer.importPending(hints: self.hints)
                    if !outcomes.isEmpty { self.onOutcomes(outcomes) }
                } catch {
                    self.onError(error)
                }
            }
        }
    }
}
