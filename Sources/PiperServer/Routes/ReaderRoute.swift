import Foundation

/// `GET /<uuid>`: the reader page, or 404 when unknown or expired (a small HTML page for
/// browsers, `{"error"}` for everyone else). Rendered pages are cached in memory: a save never
/// changes after it is committed, and expiry is checked on every hit.
struct ReaderRoute: Sendable {
    let store: any Store
    let cache: PageCache
    let publicURL: LateValue
    /// How long after expiry the source URL is kept for the expired page's link.
    var sourceGrace: TimeInterval = 0
    let clock: @Sendable () -> Date

    func page(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let id = UUIDPath.id(fromPath: request.path) else { throw HTTPError.notFound }
        let now = clock()
        guard let key = UUIDPath.key(id: id) else { throw HTTPError.notFound }
        if let page = cache.page(key: key, now: now) {
            return response(page, now: now).sendable
        }
        let found: SavedArticle?
        do {
            found = try store.article(id: id, now: now)
        } catch {
            throw HTTPError(500, "Could not read the article")
        }
        guard let article = found else { return try notFound(id: id, request: request, now: now) }
        let page = PageCache.Page(bytes: ReaderPage.render(article, url: "\(publicURL.get())/\(id)"), expiresAt: article.expiresAt)
        cache.insert(page, key: key)
        return response(page, now: now).sendable
    }

    private func notFound(id: String, request: HTTPRequest, now: Date) throws -> HTTPResponse {
        guard AcceptNegotiation.prefersHTML(request.header("Accept")) else {
            throw HTTPError(404, "No saved article with this id (it may have expired)")
        }
        let source = (try? store.expiredSourceURL(id: id, now: now, grace: sourceGrace)) ?? nil
        return HTTPResponse(status: 404, headers: ExpiredPage.headers(), body: ExpiredPage.render(sourceURL: source))
    }

    /// The page's response, the same one (and the server's object built from it) for every
    /// request within a second.
    func response(_ page: PageCache.Page, now: Date) -> ReusableResponse {
        let maxAge = max(0, Int(page.expiresAt.timeIntervalSince(now).rounded(.down)))
        return page.response(maxAge: maxAge) { maxAge in
            ReusableResponse(HTTPResponse(status: 200, headers: ReaderPage.headers(maxAge: maxAge), body: page.bytes))
        }
    }
}

/// The reader route's cached pages, as the server looks them up before it parses a request.
/// Their headers are complete as the route sends them (`ErrorMiddleware` adds nothing to them).
final class CachedReaderPages: PreparedAnswers {
    let route: ReaderRoute

    init(_ route: ReaderRoute) { self.route = route }

    /// A cached page's response, found from the path's bytes: no `String`, no `HTTPRequest`.
    func preparedResponse(path: UnsafeBufferPointer<UInt8>) -> ReusableResponse? {
        guard let key = UUIDPath.key(bytes: path) else { return nil }
        let now = route.clock()
        guard let page = route.cache.page(key: key, now: now) else { return nil }
        return route.response(page, now: now)
    }
}

/// `GET /healthz`: 200 `{"status": "ok", "store": kind}` when the store answers, else 503.
/// A server that owns its parts (`ServerApp`) adds `"parts"`: each one's name, health and a
/// few words, in start order; `"status"` is then `"degraded"` while one of them is unhealthy
/// (still 200: the saves and pages are served).
struct HealthRoute: Sendable {
    let store: any Store
    var parts: (@Sendable () -> [PartReport])?

    private struct Answer: Encodable {
        let parts: [PartReport]
        let status: String
        let store: String
    }

    func check(_ request: HTTPRequest) throws -> HTTPResponse {
        do {
            try store.checkHealth()
        } catch {
            throw HTTPError(503, "Store unavailable")
        }
        let headers = [(name: "Cache-Control", value: "no-store")]
        guard let parts = parts?() else { return .json(200, ["status": "ok", "store": store.kind], headers: headers) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let answer = Answer(parts: parts, status: parts.allSatisfy(\.healthy) ? "ok" : "degraded", store: store.kind)
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/json; charset=utf-8")] + headers,
                            body: Array(try encoder.encode(answer)))
    }
}
