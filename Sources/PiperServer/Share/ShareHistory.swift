import Foundation
import PiperCore

/// The recent shares, newest first, kept in `recent-shares.json` in the state folder (0600) so
/// the home page shows them after a restart. Each change rewrites the small file atomically
/// (temp file, fsync, rename). A media share's record keeps only its journal job id: its live
/// state (downloading, imported, failed) is read from MediaImport's journal, which persists it
/// already; an article's record holds its result (reader URL, expiry, or the failure).
///
/// `@unchecked Sendable`: `records` and the file are only touched under `lock`.
final class ShareHistory: @unchecked Sendable {
    private let lock = NSLock()
    private var records: [ShareRecord] = []
    let limit: Int
    /// nil: memory only.
    let file: URL?

    init(limit: Int, file: URL? = nil) {
        self.limit = limit
        self.file = file
        if let file { records = Array(Self.load(file).prefix(limit)) }
    }

    static func file(in state: StateFolder) -> URL { state.url.appendingPathComponent("recent-shares.json") }

    func add(_ record: ShareRecord) {
        lock.withLock {
            records.insert(record, at: 0)
            if records.count > limit { records.removeLast(records.count - limit) }
            save()
        }
    }

    var recent: [ShareRecord] { lock.withLock { records } }

    /// The record with this id, while it is among the recent ones.
    func record(id: String) -> ShareRecord? { lock.withLock { records.first { $0.id == id } } }

    /// Writes the records; a failure to write costs the history, never the share (which is
    /// stored or journaled already), so it is reported on stderr and the share goes on.
    private func save() {
        guard let file else { return }
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try StateFolder.writeAtomically(try Self.encoder.encode(records), to: file, mode: 0o600)
        } catch {
            RequestLog.standardError.write("cannot keep the recent shares in \(file.path): \(error)")
        }
    }

    /// The records in `file`; none when it is missing, and none (with a line on stderr) when it
    /// cannot be read, so a damaged history never stops the server.
    static func load(_ file: URL) -> [ShareRecord] {
        guard let data = FileManager.default.contents(atPath: file.path), !data.isEmpty else { return [] }
        do {
            return try decoder.decode([ShareRecord].self, from: data)
        } catch {
            RequestLog.standardError.write("ignoring unreadable recent shares in \(file.path)")
            return []
        }
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
