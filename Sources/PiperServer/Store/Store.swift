import Foundation
import PiperCore

/// One saved article: the sanitized HTML and its plain-text title, kept until `expiresAt`.
public struct SavedArticle: Sendable, Equatable {
    /// Lowercase UUID v4 string.
    public var id: String
    public var title: String
    /// Already sanitized: safe to embed in the reader page as is.
    public var content: String
    public var createdAt: Date
    public var expiresAt: Date
    /// Where it came from (all optional).
    public var metadata: ArticleMetadata

    public init(id: String, title: String, content: String, createdAt: Date, expiresAt: Date,
                metadata: ArticleMetadata = ArticleMetadata()) {
        self.id = id
        self.title = title
        self.content = content
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.metadata = metadata
    }
}

/// Where saves live. One contract, three drivers (memory, SQLite, PostgreSQL), one test suite.
///
/// Calls are synchronous: they run on the HTTP server's worker threads. Every driver is safe to
/// call from several threads at once.
public protocol Store: Sendable {
    /// A short driver name for health reports: "memory", "sqlite", "postgres".
    var kind: String { get }
    /// Stores `article`. Returning without throwing means it is committed (durably, for the
    /// database drivers). A duplicate id throws.
    func insert(_ article: SavedArticle) throws
    /// Stores `article` and then calls `completion` exactly once, from any thread: with nil once
    /// it is committed (as `insert(_:)` returning), else with the error `insert(_:)` would throw.
    /// The default runs `insert(_:)` on a shared pool of threads that may block.
    func insert(_ article: SavedArticle, completion: @escaping @Sendable ((any Error)?) -> Void)
    /// The article with this lowercase id, or nil when unknown or expired at `now`.
    func article(id: String, now: Date) throws -> SavedArticle?
    /// Deletes every article expired at `now`; returns how many went.
    @discardableResult func deleteExpired(now: Date) throws -> Int
    /// Like `deleteExpired(now:)`, but an expired article that has a source URL keeps only that
    /// URL (title, content and the rest are erased) until `grace` seconds after its expiry, so
    /// the expired page can link to the original. Returns how many articles were erased or deleted.
    @discardableResult func deleteExpired(now: Date, keepingSourcesFor grace: TimeInterval) throws -> Int
    /// The source URL of an article that has expired at `now` but is still within the grace
    /// period `deleteExpired(now:keepingSourcesFor:)` kept it for; nil otherwise.
    func expiredSourceURL(id: String, now: Date, grace: TimeInterval) throws -> String?
    /// Throws when the store cannot serve requests.
    func checkHealth() throws
}

extension Store {
    /// Drivers that keep nothing after expiry: every expired article goes at once.
    @discardableResult
    public func deleteExpired(now: Date, keepingSourcesFor grace: TimeInterval) throws -> Int {
        try deleteExpired(now: now)
    }

    public func expiredSourceURL(id: String, now: Date, grace: TimeInterval) throws -> String? { nil }

    public func insert(_ article: SavedArticle, completion: @escaping @Sendable ((any Error)?) -> Void) {
        BlockingPool.storeWork.async {
            do {
                try self.insert(article)
                completion(nil)
            } catch {
                completion(error)
            }
        }
    }
}

/// A store failure. The description is what an operator may see; it carries no article data.
public struct StoreError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case unavailable, duplicateID, failed }
    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

extension Date {
    /// Milliseconds since 1970, the unit both database drivers store.
    var storeMillis: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }
    init(storeMillis: Int64) { self.init(timeIntervalSince1970: Double(storeMillis) / 1000) }
}
