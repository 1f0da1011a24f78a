import Foundation
import PiperTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import PiperServer


/// A fresh temporary folder per test.
func freshDirectory(_ label: String = "server") throws -> URL {
    try makeTemporaryDirectory(label)
}

/// A clock tests move by hand.
///
/// `@unchecked Sendable`: `now` is only touched while holding `lock`.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var now = Date(timeIntervalSince1970: 1_800_000_000)

    func read() -> Date { lock.withLock { now } }
    func advance(_ seconds: TimeInterval) { lock.withLock { now += seconds } }
}

/// A backend on 127.0.0.1, port 0, with the request log silenced.
func startBackend(store: any Store = MemoryStore(), clock: TestClock? = nil,
                  configure: (inout BackendConfiguration) -> Void = { _ in }) throws -> Backend {
    var configuration = BackendConfiguration()
    configuration.http.port = 0
    configuration.http.threads = 2
    configuration.http.log = nil
    configuration.savesPerMinute = 0
    if let clock { configuration.clock = { clock.read() } }
    configure(&configuration)
    return try Backend(store: store, configuration: configuration)
}

/// One HTTP exchange's result.
struct Reply {
    let status: Int
    let headers: [String: String]   // names lowercased
    let body: Data

    var text: String { String(decoding: body, as: UTF8.self) }
    func header(_ name: String) -> String? { headers[name.lowercased()] }
    func json() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    }
}

/// A tiny HTTP client over URLSession (no cookies, no cache, no redirects followed by us).
enum Client {
    /// A fresh session per exchange: parallel tests must not queue behind each other's
    /// connections (URLSession limits connections per host, and every server here is 127.0.0.1).
    static func makeSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }

    static func send(_ method: String, _ url: String, body: Data? = nil, headers: [String: String] = [:]) async throws -> Reply {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let session = makeSession()
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var lowered: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { lowered[key.lowercased()] = value }
        }
        return Reply(status: http.statusCode, headers: lowered, body: data)
    }

    static func get(_ url: String) async throws -> Reply { try await send("GET", url) }

    static func save(_ base: String, title: Any?, content: Any?) async throws -> Reply {
        var object: [String: Any] = [:]
        if let title { object["title"] = title }
        if let content { object["content"] = content }
        let body = try JSONSerialization.data(withJSONObject: object)
        return try await send("POST", base + "/save", body: body, headers: ["Content-Type": "application/json"])
    }

    /// Saves and returns the URL from the `{"url": …}` body.
    static func saveURL(_ base: String, title: String, content: String) async throws -> String {
        let reply = try await save(base, title: title, content: content)
        try #require(reply.status == 200, "save answered \(reply.status): \(reply.text)")
        return try #require(try reply.json()["url"] as? String)
    }
}

/// A store whose every call fails, for the 500 paths.
struct FailingStore: Store {
    var kind: String { "failing" }
    func insert(_ article: SavedArticle) throws { throw StoreError(.unavailable, "disk on fire") }
    func article(id: String, now: Date) throws -> SavedArticle? { throw StoreError(.unavailable, "disk on fire") }
    func deleteExpired(now: Date) throws -> Int { throw StoreError(.unavailable, "disk on fire") }
    func checkHealth() throws { throw StoreError(.unavailable, "disk on fire") }
}

