import Foundation
import MediaImport
import PiperCore
import PiperServer

/// `piper serve --postgres` keeps the library's catalog and the X login in the store, so several
/// servers on one database act as one (`ServerApp`'s database part opens them). Each server
/// mounts the same library folder (`--library DIR`); its agent imports into it under the store's
/// lock and records in the store's catalog, which every server's library page, media route and
/// feed read. Without `--postgres` the state folder's `library.sqlite` and `cookies.txt` serve,
/// as for `piper agent` and `piper login`.
extension LibraryCommand {
    /// `--postgres URL`: the shared library's catalog in the servers' database (nil: the state
    /// folder's `library.sqlite`).
    static func catalog(postgres: String?) throws -> (any CatalogStore & Sendable)? {
        try CredentialsChoice(database: nil, postgres: postgres).openPostgres().map { PostgresCatalog(database: $0) }
    }
}
