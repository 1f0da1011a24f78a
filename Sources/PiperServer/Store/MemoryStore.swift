import Foundation
import PiperCore

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
        try deleteExpired(now: now, keepingSourcesFor: 0)
    }

    @discardableResult
    public func deleteExpired(now: Date, keepingSourcesFor grace: TimeInterval) throws -> Int {
        let cutoff = now.addingTimeInterval(-max(0, grace)).storeMillis
        return lock.withLock {
            var count = 0
            for (id, found) in articles where found.expiresAt.storeMillis <= now.storeMillis {
                if found.metadata.sourceURL == nil || found.expiresAt.storeMillis <= cutoff {
                    articles[id] = nil
                    count += 1
                } else if !found.title.isEmpty || !found.content.isEmpty {
                    // Only the source URL outlives the article, for the expired page's link.
                    articles[id] = SavedArticle(id: id, title: "", content: "", createdAt: found.createdAt,
                                                expiresAt: found.expiresAt,
                                                metadata: ArticleMetadata(sourceURL: found.metadata.sourceURL))
                    count += 1
                }
            }
            return count
        }
    }

    public func expiredSourceURL(id: String, now: Date, grace: TimeInterval) throws -> String? {
        let cutoff = now.addingTimeInterval(-max(0, grace)).storeMillis
        return lock.withLock {
            guard let found = articles[id], found.expiresAt.storeMillis <= now.storeMillis,
                  found.expiresAt.storeMillis > cutoff else { return nil }
            return found.metadata.sourceURL
        }
    }

    public func checkHealth() throws {}
}
