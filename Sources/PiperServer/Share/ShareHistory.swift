import Foundation
import PiperCore

/// The recent shares, newest first, in the share ledger (`ShareLedger`: the server's store), so
/// the home page shows them after a restart and every server on one database shows the same
/// ones. A media share's record carries its journal job and that job's last known progress;
/// the server whose journal has the job keeps the progress current (`ShareRunner.followJobs`).
///
/// The state folder's former `recent-shares.json` is imported on first use and renamed
/// `recent-shares.json.migrated`.
final class ShareHistory: Sendable {
    /// Records the home page and `/api/shares` list.
    let limit: Int
    let ledger: any ShareLedger

    init(limit: Int, ledger: any ShareLedger, state: StateFolder? = nil) {
        self.limit = limit
        self.ledger = ledger
        if let state { Self.importFormerFiles(in: state, into: ledger) }
    }

    /// Keeps a record; a failure to write costs the history, never the share (which is stored
    /// or journaled already), so it is reported on stderr and the share goes on.
    func add(_ record: ShareRecord) {
        report("keep the share \(record.id)") { try ledger.addShare(record, keeping: ShareLedgerRules.recordsKept) }
    }

    func update(_ record: ShareRecord) {
        report("update the share \(record.id)") { try ledger.updateShare(record) }
    }

    var recent: [ShareRecord] { report("read the recent shares") { try ledger.recentShares(limit: limit) } ?? [] }

    /// The records with these ids, while they are kept.
    func records(ids: [String]) -> [ShareRecord] { report("read the shares") { try ledger.shares(ids: ids) } ?? [] }

    @discardableResult
    private func report<T>(_ what: String, _ body: () throws -> T) -> T? {
        do {
            return try body()
        } catch {
            RequestLog.standardError.write("cannot \(what): \(error)")
            return nil
        }
    }

    /// Moves `recent-shares.json` and `share-keys.json` (what the state folder kept before the
    /// ledger) into the ledger in one transaction, then renames them aside. An unreadable file
    /// is renamed aside too, with a line on stderr, so a damaged history never stops the server.
    static func importFormerFiles(in state: StateFolder, into ledger: any ShareLedger) {
        let shares = state.url.appendingPathComponent("recent-shares.json")
        let keys = state.url.appendingPathComponent("share-keys.json")
        let present = [shares, keys].filter { FileManager.default.fileExists(atPath: $0.path) }
        guard !present.isEmpty else { return }
        func decode<T: Decodable>(_ type: T.Type, _ file: URL) -> T? {
            guard let data = FileManager.default.contents(atPath: file.path), !data.isEmpty else { return nil }
            do {
                return try ShareLedgerRules.decoder.decode(type, from: data)
            } catch {
                RequestLog.standardError.write("ignoring the unreadable \(file.path)")
                return nil
            }
        }
        let records = decode([ShareRecord].self, shares) ?? []
        let entries = decode([ShareKeyEntry].self, keys) ?? []
        do {
            try ledger.importShares(records, keys: entries)
        } catch {
            RequestLog.standardError.write("cannot move the recent shares into the store: \(error)")
            return
        }
        for file in present {
            let aside = file.path + DeviceRegistry.importedSuffix
            if rename(file.path, aside) == 0 {
                RequestLog.standardError.write("Moved \(file.lastPathComponent) into the store; the file is now \(aside)")
            }
        }
    }
}
