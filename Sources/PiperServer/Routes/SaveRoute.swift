import Foundation

/// `POST /save` with `{"title", "content"}`: rate-limits per client, validates, sanitizes,
/// stores, and answers `{"url": "<public-url>/<uuid>"}` only once the store has committed.
struct SaveRoute: HTTPResponder {
    let store: any Store
    let limiter: RateLimiter
    let publicURL: LateValue
    let ttl: TimeInterval
    let trustedProxies: Set<String>
    let clock: @Sendable () -> Date

    func respond(to request: HTTPRequest) throws -> HTTPResponse {
        let article: SavedArticle
        switch try accept(request) {
        case .answer(let response): return response
        case .store(let accepted): article = accepted
        }
        do {
            try store.insert(article)
        } catch {
            throw Self.notStored
        }
        return saved(article)
    }

    /// Validation and sanitizing happen on the calling thread; `reply` runs once the store has
    /// committed the article (on the store's thread), or at once for anything refused.
    func respond(to request: HTTPRequest, reply: @escaping @Sendable (Result<HTTPResponse, any Error>) -> Void) {
        let article: SavedArticle
        do {
            switch try accept(request) {
            case .answer(let response): return reply(.success(response))
            case .store(let accepted): article = accepted
            }
        } catch {
            return reply(.failure(error))
        }
        // Built before the commit so the store's thread only hands it over.
        let success = saved(article)
        store.insert(article) { error in
            reply(error == nil ? .success(success) : .failure(Self.notStored))
        }
    }

    /// What a request leads to before the store is involved.
    private enum Acceptance {
        case answer(HTTPResponse)
        case store(SavedArticle)
    }

    private func accept(_ request: HTTPRequest) throws -> Acceptance {
        switch request.method {
        case "POST": break
        case "OPTIONS": return .answer(HTTPResponse(status: 204, headers: CORS.preflight))
        default: throw HTTPError.methodNotAllowed(["POST", "OPTIONS"])
        }
        let now = clock()
        if case .denied(let retryAfter) = limiter.take(client: clientKey(request), now: now.timeIntervalSince1970) {
            let seconds = max(1, Int(retryAfter.rounded(.up)))
            throw HTTPError(429, "Too many saves; try again in \(seconds) s",
                            headers: [("Retry-After", String(seconds)), CORS.allowOrigin])
        }
        let input = try SaveInput(json: request.body)
        guard NestingScan.maxDepth(input.content) <= NestingScan.limit else {
            throw HTTPError(400, "Field 'content' nests HTML more than \(NestingScan.limit) levels deep")
        }
        return .store(SavedArticle(id: UUIDPath.randomID(),
                                   title: input.title,
                                   content: HTMLSanitizer.sanitize(input.content),
                                   createdAt: now,
                                   expiresAt: now.addingTimeInterval(ttl)))
    }

    /// No URL unless the save is committed.
    private static let notStored = HTTPError(500, "Could not store the article; nothing was saved")

    private func saved(_ article: SavedArticle) -> HTTPResponse {
        .json(200, ["url": "\(publicURL.get())/\(article.id)"], headers: [CORS.allowOrigin])
    }
}

extension SaveRoute {
    /// The address rate limits apply to: the TCP peer, or, when the peer is a trusted proxy, the
    /// last address it appended to `X-Forwarded-For`.
    func clientKey(_ request: HTTPRequest) -> String {
        guard trustedProxies.contains(request.clientAddress),
              let forwarded = request.header("X-Forwarded-For")?.split(separator: ",").last else {
            return request.clientAddress
        }
        let address = forwarded.trimmingCharacters(in: .whitespaces)
        return address.isEmpty ? request.clientAddress : address
    }
}

/// The validated body of a save: both fields strings, non-empty after trimming.
struct SaveInput: Equatable {
    let title: String
    let content: String

    init(json body: [UInt8]) throws {
        guard !body.isEmpty else { throw HTTPError(400, "Request body is empty; expected JSON with title and content") }
        let object = try FlatJSON.stringObject(body) ?? Self.parsedByFoundation(body)
        // U+0000 cannot be stored in PostgreSQL text and means nothing in HTML: replace it.
        title = Self.withoutNUL(Self.trimmed(try Self.field("title", in: object)))
        content = Self.withoutNUL(try Self.field("content", in: object))
    }

    /// Bodies `FlatJSON` declines: any JSON, with its errors.
    static func parsedByFoundation(_ body: [UInt8]) throws -> [String: Any] {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])
        } catch {
            throw HTTPError(400, "Request body is not valid JSON")
        }
        guard let object = parsed as? [String: Any] else {
            throw HTTPError(400, "Request body must be a JSON object with title and content")
        }
        return object
    }

    /// `text` with U+0000 replaced by U+FFFD (searched byte-wise first: it is almost never there).
    static func withoutNUL(_ text: String) -> String {
        text.utf8.contains(0) ? text.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}") : text
    }

    /// `text.trimmingCharacters(in: .whitespacesAndNewlines)`, skipping Foundation when both ends
    /// are visibly non-blank ASCII (the usual title).
    static func trimmed(_ text: String) -> String {
        if let first = text.utf8.first, let last = text.utf8.last, isVisibleASCII(first), isVisibleASCII(last) { return text }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// True when `text` has something besides whitespace; decided from the first byte when that
    /// is visible ASCII.
    static func hasContent(_ text: String) -> Bool {
        if let first = text.utf8.first, isVisibleASCII(first) { return true }
        return !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }

    private static func isVisibleASCII(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }

    private static func field(_ name: String, in object: [String: Any]) throws -> String {
        guard let value = object[name], !(value is NSNull) else { throw HTTPError(400, "Missing field '\(name)'") }
        guard let text = value as? String else { throw HTTPError(400, "Field '\(name)' must be a string") }
        guard hasContent(text) else {
            throw HTTPError(400, "Field '\(name)' is empty")
        }
        return text
    }
}
