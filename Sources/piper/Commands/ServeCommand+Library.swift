import Foundation
import MediaImport
import PiperServer

/// `piper serve --postgres`: the library and the X login are the store's, so several servers
/// on one database act as one. Each server mounts the same library folder (`--library DIR`);
/// its agent imports into it under the store's lock and records in the store's catalog, which
/// every server's library page, media route and feed read. Without `--postgres` the state
/// folder's `library.sqlite` and `cookies.txt` serve, as for `piper agent` and `piper login`.
extension ServeSharing {
    /// The library's catalog in the store (nil: `library.sqlite` in the state folder).
    static func catalog(_ postgres: PostgresDatabase?) -> (any CatalogStore & Sendable)? {
        postgres.map { PostgresCatalog(database: $0) }
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
