import Foundation

/// Rendered reader pages by id, bounded. Saves are immutable, so a cached page is valid until
/// its article expires; expired entries are never served.
///
/// `@unchecked Sendable`: `pages` is only touched while holding `lock`.
final class PageCache: @unchecked Sendable {
    struct Page {
        let bytes: [UInt8]
        let expiresAt: Date
    }

    private let lock = NSLock()
    private var pages: [String: Page] = [:]
    private let limit: Int

    init(limit: Int = 1024) { self.limit = limit }

    func page(id: String, now: Date) -> Page? {
        lock.withLock {
            guard let page = pages[id] else { return nil }
            guard page.expiresAt.storeMillis > now.storeMillis else {
                pages[id] = nil
                return nil
            }
            return page
        }
    }

    func insert(_ page: Page, id: String) {
        guard limit > 0 else { return }
        lock.withLock {
            if pages.count >= limit {
                // Cheap bound: drop an arbitrary half. A miss only costs one store read.
                for key in pages.keys.prefix(limit / 2 + 1) { pages[key] = nil }
            }
            pages[id] = page
        }
    }
}
