import Foundation
import MediaImport
import PiperServer

extension ServeCommand {
    /// Where the server's follows live: with `--postgres`, in the database every server shares
    /// (a follow made through one is listed and refreshed by all, one server a feed at a time);
    /// otherwise in the state folder's download journal (nil). The routes and the agent get the
    /// same store.
    static func useFollowStore(_ postgres: PostgresDatabase?, in configuration: inout BackendConfiguration) -> (any FollowStore & Sendable)? {
        let store = postgres.map(PostgresFollows.init)
        configuration.share?.follows = store
        return store
    }
}
