import Foundation
import PiperCore

/// `POST /save` with `{"title", "content"}` and optional metadata (`SaveInput+Metadata`):
/// rate-limits per client, validates, sanitizes, stores, and answers
/// `{"url": "<public-url>/<uuid>", "expires": …}` only once the store has committed;
/// `OPTIONS /save`, the CORS preflight. Its methods and access are in the route table.
struct SaveRoute: Sendable {
    let store: any Store
    let limiter: any RateLimiting
    let publicURL: LateValue
    let ttl: TimeInterval
    let trustedProxies: Set<String>
    let clock: @Sendable () -> Date
    /// Where what the sanitizer removed is noted (counts only, never content); nil: nowhere.
    var log: RequestLog? = nil

    /// The CORS preflight: a browser page may POST here.
    func preflight(_ request: HTTPRequest) -> HTTPResponse { HTTPResponse(status: 204, headers: CORS.preflight) }

    func save(_ request: HTTPRequest) throws -> HTTPResponse {
        let (article, removed) = try accept(request)
        do {
            try store.insert(article)
        } catch {
            throw Self.notStored
        }
        return saved(article, removed: removed)
    }

    /// Validation and sanitizing happen on the calling thread; `reply` runs once the store has
    /// committed the article (on the store's thread), or at once for anything refused.
    func save(_ request: HTTPRequest, reply: @escaping @Sendable (Result<HTTPResponse, any Error>) -> Void) {
        let article: SavedArticle, removed: [String: Int]
        do {
            (article, removed) = try accept(request)
        } catch {
            return reply(.failure(error))
        }
        // Built before the commit so the store's thread only hands it over.
        let success = saved(article, removed: removed)
        store.insert(article) { error in
            reply(error == nil ? .success(success) : .failure(Self.notStored))
        }
    }

    /// The article to store and what the sanitizer removed, or the refusal (rate limit, input).
    private func accept(_ request: HTTPRequest) throws -> (SavedArticle, removed: [String: Int]) {
        let now = clock()
        if case .denied(let retryAfter) = limiter.take(client: clientKey(request), now: now.timeIntervalSince1970) {
            let seconds = max(1, Int(retryAfter.rounded(.up)))
            throw HTTPError(429, "Too many saves; try again in \(seconds) s",
                            headers: [("Retry-After", String(seconds)), CORS.allowOrigin])
        }
        let (article, removed) = try Self.prepare(try SaveInput(json: request.body), now: now, ttl: ttl, log: log)
        return (article, removed)
    }

    /// A validated save as the article to store: nesting checked, content sanitized (what was
    /// removed counted and logged). `/save` and the server-side share both store through this.
    static func prepare(_ input: SaveInput, now: Date, ttl: TimeInterval, log: RequestLog?) throws -> (SavedArticle, [String: Int]) {
        guard NestingScan.maxDepth(input.content) <= NestingScan.limit else {
            throw HTTPError(400, "Field 'content' nests HTML more than \(NestingScan.limit) levels deep")
        }
        let (content, removed) = HTMLSanitizer.sanitizeCounting(input.content)
        if let log, !removed.isEmpty {
            log.write("save sanitized: removed " + removed.keys.sorted().map { "\($0)=\(removed[$0] ?? 0)" }.joined(separator: " "))
        }
        return (SavedArticle(id: UUIDPath.randomID(), title: input.title, content: content, createdAt: now,
                             expiresAt: now.addingTimeInterval(ttl), metadata: input.metadata), removed)
    }

    /// No URL unless the save is committed.
    private static let notStored = HTTPError(500, "Could not store the article; nothing was saved")

    /// Carries every header `ErrorMiddleware` would add, so the commit thread that delivers it
    /// finds the response complete and passes it on as it is.
    private func saved(_ article: SavedArticle, removed: [String: Int]) -> HTTPResponse {
        HTTPResponse(status: 200,
                     headers: [("Content-Type", "application/json; charset=utf-8"), CORS.allowOrigin,
                               ("X-Content-Type-Options", "nosniff")],
                     body: SaveAnswer.body(url: "\(publicURL.get())/\(article.id)", expires: article.expiresAt, removed: removed))
    }
}

extension SaveRoute {
    /// The address rate limits apply to: the TCP peer, or, when the peer is a trusted proxy, the
    /// last address it appended to `X-Forwarded-For`.
    func clientKey(_ request: HTTPRequest) -> String {
        ClientAddress.resolve(peer: request.clientAddress, forwardedFor: request.header("X-Forwarded-For"),
                              trustedProxies: trustedProxies)
    }
}

/// The client a request stands for: the TCP peer, or, when the peer is a trusted proxy, the
/// last address it appended to `X-Forwarded-For`.
enum ClientAddress {
    static func resolve(peer: String, forwardedFor: String?, trustedProxies: Set<String>) -> String {
        guard trustedProxies.contains(peer), let forwarded = forwardedFor?.split(separator: ",").last else { return peer }
        let address = forwarded.trimmingCharacters(in: .whitespaces)
        return address.isEmpty ? peer : address
    }
}

/// The CORS headers `/save` sends, so a browser page may POST to it.
enum CORS {
    static let allowOrigin = ("Access-Control-Allow-Origin", "*")
    static let preflight: [(name: String, value: String)] = [
        allowOrigin,
        ("Access-Control-Allow-Methods", "POST, OPTIONS"),
        ("Access-Control-Allow-Headers", "Content-Type, Authorization"),
        ("Access-Control-Max-Age", "86400"),
        ("Allow", "POST, OPTIONS"),
    ]
}
