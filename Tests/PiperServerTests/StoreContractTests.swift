import Foundation
import PiperTestSupport
import Testing
@testable import PiperServer

/// The drivers the one contract suite runs against.
enum Driver: String, CaseIterable, CustomTestStringConvertible {
    case memory, sqlite, postgres
    var testDescription: String { rawValue }
}

extension Driver {
    /// The drivers a parameterized test runs against: PostgreSQL only when it is configured
    /// (`PostgresTestDatabase`; under CI its absence fails `requiredPostgresIsConfigured`).
    static var available: [Driver] {
        allCases.filter { $0 != .postgres || PostgresTestDatabase.isConfigured }
    }
}

/// A fresh store of `driver` plus its cleanup.
func makeStore(_ driver: Driver) throws -> (store: any Store, cleanup: () -> Void) {
    switch driver {
    case .memory:
        return (MemoryStore(), {})
    case .sqlite:
        let dir = try freshDirectory("sqlite")
        return (try SQLiteStore(path: dir.appendingPathComponent("saves.sqlite").path),
                { try? FileManager.default.removeItem(at: dir) })
    case .postgres:
        let schema = try FreshPostgresSchema()
        return (PostgresStore(database: try schema.open()), { schema.drop() })
    }
}

/// Under CI or with `PIPER_REQUIRE_POSTGRES` set, the PostgreSQL cases must run: a missing
/// `PIPER_TEST_POSTGRES_URL` fails here instead of leaving them skipped.
@Suite(.ownThread) struct PostgresRequirementTests {
    @Test(.enabled(if: PostgresTestDatabase.isRequired, "neither CI nor PIPER_REQUIRE_POSTGRES is set"))
    func requiredPostgresIsConfigured() {
        #expect(PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set although PostgreSQL is required; run scripts/start-postgres")
    }
}

func article(_ id: String = UUID().uuidString.lowercased(), title: String = "Title", content: String = "<p>Body</p>",
             created: Date = Date(timeIntervalSince1970: 1_800_000_000), ttl: TimeInterval = 3600) -> SavedArticle {
    SavedArticle(id: id, title: title, content: content, createdAt: created, expiresAt: created.addingTimeInterval(ttl))
}

/// One contract, three drivers.
@Suite(.ownThread) struct StoreContractTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test(arguments: Driver.available)
    func insertedArticleReadsBackExactly(driver: Driver) throws {
        let (store, cleanup) = try makeStore(driver)
        defer { cleanup() }
        let saved = article(title: "Ünïcødé — “quotes” 🎉", content: "<p>Line 1</p>\n<p>Line 2 &amp; more 日本語</p>")
        try store.insert(saved)
        let read = try #require(try store.article(id: saved.id, now: t0))
        #expect(read == saved)
    }

    @Test(arguments: Driver.available)
    func unknownIDIsNil(driver: Driver) throws {
        let (store, cleanup) = try makeStore(driver)
        defer { cleanup() }
        try store.insert(article())
        #expect(try store.article(id: UUID().uuidString.lowercased(), now: t0) == nil)
    }

    @Test(arguments: Driver.available)
    func expiredArticleIsNeverReturned(driver: Driver) throws {
        let (store, cleanup) = try makeStore(driver)
        defer { cleanup() }
        let saved = article(ttl: 60)
        try store.insert(saved)
        #expect(try store.article(id: saved.id, now: t0.addingTimeInterval(59.999)) != nil)
        #expect(try store.article(id: saved.id, now: t0.addingTimeInterval(60)) == nil)
        #expect(try store.article(id: saved.id, now: t0.addingTimeInterval(3600)) == nil)
    }

    @Test(arguments: Driver.available)
    func deleteExpiredRemovesOnlyExpiredRows(driver: Driver) throws {
        let (store, cleanup) = try makeStore(driver)
        defer { cleanup() }
        let short = [article(ttl: 10), article(ttl: 20)]
        let long = article(ttl: 1000)
        for a in short + [long] { try store.insert(a) }
        #expect(try store.deleteExpired(now: t0.addingTimeInterval(5)) == 0)
        #expect(try store.deleteExpired(now: t0.addingTimeInterval(20)) == 2)
        #expect(try store.deleteExpired(now: t0.addingTimeInterval(20)) == 0)
        #expect(try store.article(id: long.id, now: t0.addingTimeInterval(20)) == long)
    }

    @Test(arguments: Driver.available)
    func duplicateIDIsRejectedAndKeepsTheFirst(driver: Driver) throws {
        let (store, cleanup) = try makeStore(driver)
        defer { cleanup() }
        let first = article(title: "First")
        try store.insert(first)
        var second = first
        second.title = "Second"
        #expect(throws: StoreError.self) { try store.insert(second) }
        do { try store.insert(second) } catch let error as StoreError { #expect(error.kind == .duplicateID) }
        #expect(try store.article(id: first.id, now: t0)?.title == "First")
    }

    @Test(arguments: Driver.available)
    func concurrentInsertsAreAllCommitted(driver: Driver) throws {
        let (store, cleanup) = try makeStore(driver)
        defer { cleanup() }
        let articles = (0..<64).map { article(title: "Concurrent \($0)") }
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: articles.count) { i in
            do { try store.insert(articles[i]) } catch { failures.add(error) }
        }
        #expect(failures.count == 0)
        for a in articles { #expect(try store.article(id: a.id, now: t0) == a) }
    }

    @Test(arguments: Driver.available)
    func completionInsertsAreCommittedBeforeTheyComplete(driver: Driver) throws {
        let (store, cleanup) = try makeStore(driver)
        defer { cleanup() }
        let articles = (0..<64).map { article(title: "Completed \($0)") }
        let failures = Failures()
        let group = DispatchGroup()
        for a in articles {
            group.enter()
            store.insert(a) { error in
                // Committed means readable by anyone as soon as the completion runs.
                do {
                    if let error { throw error }
                    if try store.article(id: a.id, now: a.createdAt) != a { failures.add(StoreError(.failed, "not readable")) }
                } catch {
                    failures.add(error)
                }
                group.leave()
            }
        }
        group.wait()
        #expect(failures.count == 0)
    }

    @Test(arguments: Driver.available)
    func completionInsertReportsADuplicateAndKeepsItsBatchmates(driver: Driver) throws {
        let (store, cleanup) = try makeStore(driver)
        defer { cleanup() }
        let first = article(title: "First")
        try store.insert(first)
        var duplicate = first
        duplicate.title = "Second"
        let others = (0..<8).map { article(title: "Other \($0)") }
        let results = Results()
        let group = DispatchGroup()
        for a in [duplicate] + others {
            group.enter()
            store.insert(a) { error in
                results.set(a.title, error)
                group.leave()
            }
        }
        group.wait()
        #expect((results.error("Second") as? StoreError)?.kind == .duplicateID)
        for a in others {
            #expect(results.error(a.title) == nil)
            #expect(try store.article(id: a.id, now: t0) == a)
        }
        #expect(try store.article(id: first.id, now: t0)?.title == "First")
    }

    @Test(arguments: Driver.available)
    func healthyStorePassesItsCheck(driver: Driver) throws {
        let (store, cleanup) = try makeStore(driver)
        defer { cleanup() }
        try store.checkHealth()
        #expect(store.kind == driver.rawValue)
    }
}

/// Errors collected from worker threads.
///
/// `@unchecked Sendable`: `errors` is only touched while holding `lock`.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [Error] = []
    func add(_ error: Error) { lock.withLock { errors.append(error) } }
    var count: Int { lock.withLock { errors.count } }
    var descriptions: [String] { lock.withLock { errors.map { "\($0)" } } }
}

/// Each completion's error by article title.
///
/// `@unchecked Sendable`: `errors` is only touched while holding `lock`.
final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [String: (any Error)?] = [:]
    func set(_ title: String, _ error: (any Error)?) { lock.withLock { errors[title] = .some(error) } }
    func error(_ title: String) -> (any Error)? { lock.withLock { errors[title] ?? nil } }
}

@Suite(.ownThread) struct StoreDriverTests {
    @Test func sqliteStoreSurvivesReopening() throws {
        let dir = try freshDirectory("sqlite-reopen")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("saves.sqlite").path
        let saved = article()
        try SQLiteStore(path: path).insert(saved)
        let reopened = try SQLiteStore(path: path)
        #expect(try reopened.article(id: saved.id, now: saved.createdAt) == saved)
    }

    @Test func unreachablePostgresIsAnUnavailableError() throws {
        do {
            _ = try PostgresDatabase(url: "postgresql://nobody@127.0.0.1:1/none?connect_timeout=2")
            Issue.record("connecting to port 1 should fail")
        } catch let error as StoreError {
            #expect(error.kind == .unavailable)
        }
    }
}

/// Stores behind a real server: scale-out over one PostgreSQL table, real failures, odd input.
@Suite(.ownThread) struct StoreEndToEndTests {
    /// Two servers, two handles (two connection pools), one PostgreSQL table: a save made through one server is
    /// read through the other (what a balancer in front of several `piper serve` needs).
    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func twoServersShareOnePostgresTable() async throws {
        let schema = try FreshPostgresSchema()
        defer { schema.drop() }
        let storeA = PostgresStore(database: try schema.open())
        let storeB = PostgresStore(database: try schema.open())
        let a = try startBackend(store: storeA) { $0.publicURL = "https://piper.example" }
        let b = try startBackend(store: storeB) { $0.publicURL = "https://piper.example" }
        let saved = try await Client.saveURL(a.baseURL, title: "Shared", content: "<p>Through A</p>")
        let id = try #require(saved.split(separator: "/").last)
        let page = try await Client.get(b.baseURL + "/" + id)
        #expect(page.status == 200)
        #expect(page.text.contains("Through A"))
        #expect(try await Client.get(b.baseURL + "/healthz").text.contains("postgres"))
    }

    /// A real store failure (the table vanished under the server): 500, and no URL.
    @Test(.enabled(if: PostgresTestDatabase.isConfigured, "PIPER_TEST_POSTGRES_URL is not set"))
    func postgresFailureIs500WithoutAURL() async throws {
        let schema = try FreshPostgresSchema()
        defer { schema.drop() }
        let backend = try startBackend(store: PostgresStore(database: try schema.open()))
        #expect(try await Client.save(backend.baseURL, title: "Before", content: "<p>x</p>").status == 200)
        try schema.connect().execute("DROP TABLE piper_saves")
        let reply = try await Client.save(backend.baseURL, title: "After", content: "<p>x</p>")
        #expect(reply.status == 500)
        #expect(try reply.json()["url"] == nil)
        #expect(try reply.json()["error"] as? String == "Could not store the article; nothing was saved")
    }

    @Test func sqliteFailureIs500WithoutAURL() async throws {
        let dir = try freshDirectory("sqlite-fail")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.sqlite").path
        let backend = try startBackend(store: try SQLiteStore(path: path))
        #expect(try await Client.save(backend.baseURL, title: "Before", content: "<p>x</p>").status == 200)
        let (status, _) = try runProcess("/usr/bin/sqlite3", [path, "DROP TABLE saves"])
        try #require(status == 0)
        let reply = try await Client.save(backend.baseURL, title: "After", content: "<p>x</p>")
        #expect(reply.status == 500)
        #expect(try reply.json()["url"] == nil)
    }

    @Test func nulCharactersAreStorableEverywhere() async throws {
        for driver in Driver.available {
            let (store, cleanup) = try makeStore(driver)
            defer { cleanup() }
            let backend = try startBackend(store: store)
            let url = try await Client.saveURL(backend.baseURL, title: "Nul\u{0}title", content: "<p>nul\u{0}body</p>")
            let page = try await Client.get(url)
            #expect(page.status == 200, "driver \(driver)")
            #expect(page.text.contains("<title>Nul\u{FFFD}title</title>"), "driver \(driver)")
        }
    }
}

@Suite(.ownThread) struct SQLiteCheckpointTests {
    /// The background checkpointer's pass copies every committed WAL frame into the database
    /// file, and the data reads back the same afterwards.
    @Test func checkpointMovesCommittedPagesIntoTheFile() throws {
        let dir = try freshDirectory("sqlite-checkpoint")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("saves.sqlite").path
        let store = try SQLiteStore(path: path)
        let articles = (0..<200).map { article(title: "Checkpointed \($0)") }
        for a in articles { try store.insert(a) }
        var result = try store.checkpointer.checkpoint()
        // The background pass may be mid-way; passes are cheap: repeat until one reports that
        // everything is copied.
        for _ in 0..<100 where result.checkpointed < result.walFrames {
            Thread.sleep(forTimeInterval: 0.01)
            result = try store.checkpointer.checkpoint()
        }
        #expect(result.walFrames > 0)
        #expect(result.checkpointed == result.walFrames)
        let fileSize = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(fileSize > 200 * 100)
        for a in articles { #expect(try store.article(id: a.id, now: a.createdAt) == a) }
    }
}
