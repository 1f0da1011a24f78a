import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperServer

/// A real `piper serve --port 0` with sharing, in a fresh state folder, plus the credentials a
/// test needs: the share token it created and pairing through its registry.
final class ShareServer {
    let home: URL
    let arguments: [String]
    private(set) var serve: ServeProcess
    var url: String { serve.url }
    var state: StateFolder { StateFolder(url: home) }
    var registry: DeviceRegistry { get throws { try DeviceRegistry(state: state) } }

    /// Extra environment for the server process (PIPER_X_HOSTS, say).
    let environment: [String: String]

    /// `prepare` fills the fresh state folder before the server starts (files of an older version).
    init(_ arguments: [String] = [], environment: [String: String] = [:], prepare: (URL) throws -> Void = { _ in }) throws {
        home = try freshDirectory("share")
        try prepare(home)
        self.arguments = arguments
        self.environment = environment
        serve = try ServeProcess(arguments: arguments, home: home, environment: environment)
    }

    /// Stops the server (SIGTERM, as systemd does) and starts a new one on the same state folder.
    func restart() throws {
        serve.stop(signal: SIGTERM)
        serve = try ServeProcess(arguments: arguments, home: home, environment: environment)
    }

    /// Kills the server as a crash would (SIGKILL: nothing of it runs after).
    func crash() { serve.stop(signal: SIGKILL) }

    /// Stops the server for good (a server that is away).
    func stopServing() { serve.stop(signal: SIGTERM) }

    /// Starts it again on `port` after `stopServing`.
    func startServing(port: Int) throws { serve = try ServeProcess(arguments: arguments, home: home, port: port, environment: environment) }

    /// The share token `piper serve` wrote on first start (0600).
    func token() throws -> String {
        try String(contentsOf: home.appendingPathComponent("share-token"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    var bearer: [String: String] { get throws { ["Authorization": "Bearer \(try token())", "Accept": "application/json"] } }

    private var ownerCookie: String?

    /// The headers of the owner's browser (paired on first use), which sees every device's
    /// shares; the share token (`bearer`) sees only its own.
    func ownerHeaders() async throws -> [String: String] {
        if ownerCookie == nil { ownerCookie = try await pair(name: "owner's browser").cookie }
        return ["Cookie": ownerCookie ?? "", "Accept": "application/json"]
    }

    /// Pairs a device through a pairing URL as a browser does: the GET shows the confirmation
    /// form, its POST pairs (the owner's browser, or a share-only one). Returns the `Cookie`
    /// header value and the Set-Cookie.
    func pair(name: String = "test phone", scope: DeviceScope = .owner) async throws -> (cookie: String, setCookie: String) {
        let code = try registry.createPairing(scope: scope)
        let page = try await Client.send("GET", "\(url)/pair?code=\(code)", headers: ["Accept": "text/html"])
        try #require(page.status == 200, "the pairing page answered \(page.status): \(page.text)")
        let reply = try await confirmPairing(code: code, name: name)
        try #require(reply.status == 200, "pairing answered \(reply.status): \(reply.text)")
        let setCookie = try #require(reply.header("Set-Cookie"))
        let cookie = try #require(setCookie.split(separator: ";").first.map(String.init))
        return (cookie, setCookie)
    }

    /// The confirmation form's POST /pair, sent from this site.
    func confirmPairing(code: String, name: String?, headers: [String: String] = ["Sec-Fetch-Site": "same-origin"]) async throws -> Reply {
        var fields = "code=\(code)"
        if let name { fields += "&name=\(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
        var all = headers
        all["Accept"] = all["Accept"] ?? "text/html"
        all["Content-Type"] = "application/x-www-form-urlencoded"
        return try await Client.send("POST", url + "/pair", body: Data(fields.utf8), headers: all)
    }

    /// POST /share with a JSON body.
    func shareJSON(_ object: [String: String], headers: [String: String]) async throws -> Reply {
        var all = headers
        all["Content-Type"] = "application/json"
        return try await Client.send("POST", url + "/share", body: try JSONSerialization.data(withJSONObject: object), headers: all)
    }

    /// POST /share form-encoded.
    func shareForm(_ fields: [String: String], headers: [String: String]) async throws -> Reply {
        var all = headers
        all["Content-Type"] = "application/x-www-form-urlencoded"
        let body = fields.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")
        return try await Client.send("POST", url + "/share", body: Data(body.utf8), headers: all)
    }
}

/// A local site with one article, for the article route.
enum ShareSite {
    static let articleHTML = """
        <html><head><title>A shared article</title></head><body><article><h1>A shared article</h1>
        <p>This paragraph is long enough, with commas, clauses, and words, that Readability keeps it as the body of the article.</p>
        <p>Another paragraph follows, again with commas, more clauses, and more words, so that the article has a real body.</p>
        <p>A third paragraph, with still more text, commas, and sentences, closes the article about sharing from a phone.</p>
        </article></body></html>
        """

    static func start(extra: [String: TestHTTPServer.Route] = [:]) throws -> TestHTTPServer {
        var routes: [String: TestHTTPServer.Route] = ["/article": .html(articleHTML)]
        for (path, route) in extra { routes[path] = route }
        return try TestHTTPServer(routes: routes)
    }
}
