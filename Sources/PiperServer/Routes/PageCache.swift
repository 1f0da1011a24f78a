import Foundation

/// Rendered reader pages by id (its 128 bits, `UUIDPath.Key`), bounded by count and by bytes.
/// Saves are immutable, so a cached page is valid until its article expires; expired entries
/// are never served.
///
/// Locks are `NSLock`s (a futex wait when taken), not Synchronization's `Mutex`: its slow path
/// spins, and with every request of 32 connections on two cores taking the same lock, the
/// spinning was 8–47 % of the server's CPU samples (bench-server, GET rate halved).
///
/// `@unchecked Sendable`: `contents` is only touched while holding `lock`.
final class PageCache: @unchecked Sendable {
    /// A rendered page, and the response last made of it. A response states the seconds left
    /// (`max-age`), so it is made again when that number changes: at most once a second per
    /// page, however many requests read it.
    ///
    /// `@unchecked Sendable`: `latest` is only touched while holding `lock`.
    final class Page: @unchecked Sendable {
        let bytes: [UInt8]
        let expiresAt: Date
        private let lock = NSLock()
        private var latest: (maxAge: Int, response: ReusableResponse)?

        init(bytes: [UInt8], expiresAt: Date) {
            self.bytes = bytes
            self.expiresAt = expiresAt
        }

        /// The response for `maxAge`, made by `make` unless the last one was for the same.
        func response(maxAge: Int, make: (Int) -> ReusableResponse) -> ReusableResponse {
            lock.withLock {
                if let latest, latest.maxAge == maxAge { return latest.response }
                let response = make(maxAge)
                latest = (maxAge, response)
                return response
            }
        }
    }

    private struct Contents {
        var pages: [UUIDPath.Key: Page] = [:]
        var totalBytes = 0

        mutating func remove(_ key: UUIDPath.Key) {
            if let old = pages.removeValue(forKey: key) { totalBytes -= PageCache.cost(old) }
        }
    }

    private let lock = NSLock()
    private var contents = Contents()
    private let limit: Int
    private let byteLimit: Int

    /// At most `limit` pages and `byteLimit` bytes; pages larger than a sixteenth of the byte
    /// budget are not cached at all. A page counts twice its size: its response's libmicrohttpd
    /// object (`ReusableResponse`) holds a copy of the bytes of its own.
    init(limit: Int = 1024, byteLimit: Int = 64 * 1024 * 1024) {
        self.limit = limit
        self.byteLimit = byteLimit
    }

    func page(key: UUIDPath.Key, now: Date) -> Page? {
        lock.withLock {
            guard let page = contents.pages[key] else { return nil }
            guard page.expiresAt.storeMillis > now.storeMillis else {
                contents.remove(key)
                return nil
            }
            return page
        }
    }

    func insert(_ page: Page, key: UUIDPath.Key) {
        guard limit > 0, page.bytes.count <= byteLimit / 16 else { return }
        lock.withLock {
            contents.remove(key)
            if contents.pages.count >= limit || contents.totalBytes + Self.cost(page) > byteLimit {
                // Cheap bound: drop an arbitrary half. A miss only costs one store read.
                for key in Array(contents.pages.keys.prefix(contents.pages.count / 2 + 1)) { contents.remove(key) }
            }
            contents.pages[key] = page
            contents.totalBytes += Self.cost(page)
        }
    }

    var byteCount: Int { lock.withLock { contents.totalBytes } }
    var count: Int { lock.withLock { contents.pages.count } }

    fileprivate static func cost(_ page: Page) -> Int { 2 * page.bytes.count }
}
