import Foundation

/// Keeps saves in a dictionary: for tests and throwaway servers. Lost on exit.
///
/// `@unchecked Sendable`: `articles` is only touched while holding `lock`.
public final class MemoryStore: Store, @unchecked Sendable {
    private let lock = NSLock()
    private var articles: [String: SavedArticle] = [:]

    public init() {}

    public var kind: String { "memory" }

    public func insert(_ article: SavedArticle) throws {
        try lock.withLock {
            guard articles[article.id] == nil else { throw StoreError(.duplicateID, "An article with this id exists") }
            articles[article.id] = article
        }
    }

    public func insert(_ article: SavedArticle, completion: @escaping @Sendable ((any Error)?) -> Void) {
        do {
            try insert(article)
            completion(nil)
        } catch {
            completion(error)
        }
    }

    public func article(id: String, now: Date) throws -> SavedArticle? {
        lock.withLock {
            guard let found = articles[id], found.expiresAt.storeMillis > now.storeMillis else { return nil }
            return found
        }
    }

    @discardableResult
    public func deleteExpired(now: Date) throws -> Int {
        lock.withLock {
            let expired = articles.values.filter { $0.expiresAt.storeMillis <= now.storeMillis }.map(\.id)
            for id in expired { articles[id] = nil }
            return expired.count
        }
    }

    public func checkHealth() throws {}
}
