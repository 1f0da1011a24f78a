import Foundation
import MediaImport
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperServer

/// A PostgreSQL database made by the build before follows were shared (its history ends before
/// the "follows" step) gains the follows' tables in place when `piper serve --postgres` starts
/// on it: what it held is kept, and the new step is recorded once.
@Suite(.ownThread) struct FollowsMigrationTests {
    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func aDatabaseFromBeforeFollowsGainsThemInPlace() throws {
        let schema = try FreshPostgresSchema()
        defer { schema.drop() }
        let before = Array(PostgresDatabase.migrations.prefix { $0.name != "follows" })
        #expect(before.count < PostgresDatabase.migrations.count)
        let old = try PostgresDatabase(url: schema.url, connections: 2, migrations: before)
        #expect(try PostgresCredentials(database: old).secret(named: "share-token", proposing: "kept-token") == "kept-token")
        #expect(try schema.connect().execute("SELECT to_regclass('piper_follows') IS NULL AS missing").onlyRow().bool("missing"))

        let home = try freshDirectory("follows-migration")
        let server = try ServeProcess(arguments: ["--postgres", schema.url], home: home)
        server.stop(signal: SIGTERM)
        try PostgresMigrationTests.expectFullHistory(schema)
        let database = try schema.open(connections: 2)
        #expect(try PostgresCredentials(database: database).secret(named: "share-token", proposing: "other") == "kept-token")
        let follows = PostgresFollows(database: database)
        #expect(try follows.follows().isEmpty)
        let follow = Follow(id: Journal.newID(), url: "https://example.org/feed.xml", title: "Ocean Weekly", folder: "Ocean Weekly", keep: nil,
                            created: Date(timeIntervalSince1970: 1_796_000_000), nextCheck: Date(timeIntervalSince1970: 1_796_003_600))
        let state = StateFolder(url: home)
        #expect(try follows.addFollow(follow, meeting: [], queueingInto: Journal(state: state)))
        #expect(try follows.follows() == [follow])
    }
}
