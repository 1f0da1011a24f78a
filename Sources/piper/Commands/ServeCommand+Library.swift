import Foundation
import MediaImport
import PiperCore
import PiperServer

/// `piper serve --postgres`: the library and the X login are the store's, so several servers
/// on one database act as one. Each server mounts the same library folder (`--library DIR`);
/// its agent imports into it under the store's lock and records in the store's catalog, which
/// every server's library page, media route and feed read. Without `--postgres` the state
/// folder's `library.sqlite` and `cookies.txt` serve, as for `piper agent` and `piper login`.
extension ServeSharing {
    /// The library's catalog in the store (nil: `library.sqlite` in the state folder).
    static func catalog(_ postgres: PostgresDatabase?) -> PostgresCatalog? {
        postgres.map { PostgresCatalog(database: $0) }
    }

    /// With `--postgres`, the state folder's former `library.sqlite` moves into the store's
    /// catalog on the first start (`LibraryAdoption`); a failure (the shared folder not mounted)
    /// is said and the file kept for the next start.
    static func adoptLibrary(_ catalog: PostgresCatalog?, state: StateFolder) {
        guard let catalog else { return }
        do {
            let adopted = try LibraryAdoption.adopt(state, into: catalog)
            if adopted > 0 { Output.note("Moved \(adopted) item\(adopted == 1 ? "" : "s") of library.sqlite into the store's catalog") }
        } catch {
            Output.err("Warning: library.sqlite was not moved into the store's catalog (\(error)); the server tries again at its next start")
        }
    }

    /// With `--postgres`, `/connect-x` saves the X cookies among the store's secrets and every
    /// share on any server reads them there.
    static func keepXLoginInStore(_ services: inout ShareServices?, postgres: PostgresDatabase?) {
        guard postgres != nil, let credentials = services?.credentials else { return }
        services?.cookies = StoreCookieStore(secrets: credentials)
    }
}

extension LibraryCommand {
    /// `--postgres URL`: the shared library's catalog in the servers' database (nil: the state
    /// folder's `library.sqlite`).
    static func catalog(postgres: String?) throws -> (any CatalogStore & Sendable)? {
        try ServeSharing.catalog(CredentialsChoice(database: nil, postgres: postgres).openPostgres())
    }
}
