import Foundation
import PiperCore
import PiperServer

/// Where `piper serve`, `piper pair` and `piper devices` keep who may share: the store the
/// server keeps its saves in (`--db PATH`, else the state folder's `piper-serve.sqlite`; or
/// `--postgres URL`), so a pairing or a revocation made by one process is what every server on
/// that store accepts from its next request.
enum CredentialsChoice {
    static func store(state: StateFolder, database: String?, postgres: String?) throws -> any CredentialStore {
        if let postgres { return try PostgresCredentials(url: postgres) }
        try state.ensure()
        return try SQLiteCredentials(path: database ?? state.serverDatabase.path)
    }

    static func registry(state: StateFolder, database: String?, postgres: String?) throws -> DeviceRegistry {
        try DeviceRegistry(state: state, credentials: store(state: state, database: database, postgres: postgres))
    }
}
