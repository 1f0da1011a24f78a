import Foundation
import PiperSystem
import PiperTestSupport
import Testing
@testable import PiperServer

/// Who may share, against a real `piper serve`: the share token, paired devices (cookies),
/// named tokens, revocation, cross-site refusal, and `/save`'s anonymous contract.
@Suite(.ownThread, .timeLimit(.minutes(2)))
struct ShareAuthTests {
    @Test func theShareTokenIs256BitsInAPrivateFile() throws {
        let server = try ShareServer()
        let token = try server.token()
        #expect(token.count == 64 && token.allSatisfy(\.isHexDigit))
        let mode = try FileManager.default.attributesOfItem(atPath: server.home.appendingPathComponent("share-token").path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func everyProtectedRouteRefusesWithoutACredential() async throws {
        let server = try ShareServer()
        for (method, path) in [("POST", "/share"), ("GET", "/share?url=https://example.com/"), ("GET", "/"), ("GET", "/api/shares"),
                               ("GET", "/shortcut"), ("POST", "/tokens")] {
            let json = try await Client.send(method, server.url + path, body: method == "POST" ? Data("url=https://example.com/".utf8) : nil,
                                             headers: ["Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded"])
            #expect(json.status == 401, "\(method) \(path)")
            #expect((try? json.json()["error"] as? String)?.contains("piper pair") == true, "\(method) \(path): \(json.text)")
            let html = try await Client.send(method, server.url + path, headers: ["Accept": "text/html"])
            #expect(html.status == 401, "\(method) \(path)")
            #expect(html.text.contains("piper pair"), "\(method) \(path)")
        }
        // Public: reader pages' neighbours the browser needs to install the app.
        for path in ["/manifest.webmanifest", "/sw.js", "/app.js", "/app.css", "/icon-192.png", "/icon-512.png", "/healthz"] {
            #expect(try await Client.get(server.url + path).status == 200, "\(path)")
        }
    }

    @Test func aBadOrRevokedCredentialIsRefused() async throws {
        let server = try ShareServer()
        let wrong = try await server.shareJSON(["url": "https://example.com/"], headers: ["Authorization": "Bearer nope", "Accept": "application/json"])
        #expect(wrong.status == 401)
        let (cookie, _) = try await server.pair(name: "old phone")
        let before = try await Client.send("GET", server.url + "/api/shares", headers: ["Cookie": cookie])
        #expect(before.status == 200)
        let device = try #require(try server.registry.devices().first)
        #expect(device.name == "old phone")
        let revoked = try PiperBinaryRun.piper(["devices", "revoke", device.id], home: server.home)
        #expect(revoked.status == 0, "\(revoked.stderr)")
        let after = try await Client.send("GET", server.url + "/api/shares", headers: ["Cookie": cookie, "Accept": "application/json"])
        #expect(after.status == 401)
        #expect((try after.json()["error"] as? String)?.contains("doesn't know this browser's pairing") == true)
    }

    @Test func pairingSetsAPrivateCookieOnceAndListsTheDevice() async throws {
        let server = try ShareServer()
        let code = try server.registry.createPairing()
        let android = "Mozilla/5.0 (Linux; Android 14) Chrome/126.0 Mobile"
        let page = try await Client.send("GET", "\(server.url)/pair?code=\(code)", headers: ["Accept": "text/html", "User-Agent": android])
        #expect(page.status == 200)
        #expect(page.header("Set-Cookie") == nil)
        #expect(page.text.contains("value=\"Chrome on Android\""), "the name field is filled from the User-Agent")
        let reply = try await server.confirmPairing(code: code, name: nil, headers: ["Sec-Fetch-Site": "same-origin", "User-Agent": android])
        #expect(reply.status == 200)
        let setCookie = try #require(reply.header("Set-Cookie"))
        #expect(setCookie.hasPrefix("piper_device="))
        #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Lax") && !setCookie.contains("Secure"))
        #expect(reply.text.contains("Paired as Chrome on Android"))
        let again = try await server.confirmPairing(code: code, name: "second")
        #expect(again.status == 401)
        #expect(again.header("Set-Cookie") == nil)
        #expect(again.text.contains("already used or has expired"))
        let used = try await Client.send("GET", "\(server.url)/pair?code=\(code)", headers: ["Accept": "text/html"])
        #expect(used.status == 401, "the page says so before the button is pressed")
        let listed = try PiperBinaryRun.piper(["devices", "--json"], home: server.home)
        #expect(listed.stdout.contains("Chrome on Android"))
        #expect(try server.registry.devices().count == 1)
    }

    /// Chat apps fetch a pasted link for its preview: GETs (and HEADs) must leave the code usable.
    @Test func linkPreviewsDoNotUseThePairingUp() async throws {
        let server = try ShareServer()
        let code = try server.registry.createPairing()
        for method in ["GET", "HEAD", "GET"] {
            let preview = try await Client.send(method, "\(server.url)/pair?code=\(code)", headers: ["User-Agent": "Slackbot-LinkExpanding 1.0"])
            #expect(preview.status == 200, "\(method)")
            #expect(preview.header("Set-Cookie") == nil, "\(method)")
        }
        #expect(try server.registry.devices().isEmpty)
        let form = try await Client.send("GET", "\(server.url)/pair?code=\(code)", headers: ["Accept": "text/html"])
        #expect(form.text.contains("<form method=\"post\" action=\"/pair\""))
        #expect(form.text.contains("name=\"code\" value=\"\(code)\""))
        let paired = try await server.confirmPairing(code: code, name: "phone")
        #expect(paired.status == 200 && paired.header("Set-Cookie") != nil)
        #expect(try server.registry.devices().map(\.name) == ["phone"])
    }

    /// Another site cannot post the form (and so cannot pair the visitor's browser to this server).
    @Test func aCrossSitePairingPostIsRefusedAndLeavesTheCodeUsable() async throws {
        let server = try ShareServer()
        let code = try server.registry.createPairing()
        let crossSite = try await server.confirmPairing(code: code, name: "x", headers: ["Sec-Fetch-Site": "cross-site"])
        #expect(crossSite.status == 403)
        #expect(crossSite.header("Set-Cookie") == nil)
        let otherOrigin = try await server.confirmPairing(code: code, name: "x", headers: ["Origin": "https://evil.example"])
        #expect(otherOrigin.status == 403)
        #expect(try server.registry.devices().isEmpty)
        let unknown = try await server.confirmPairing(code: String(repeating: "0", count: 64), name: "x")
        #expect(unknown.status == 401)
        #expect(try await server.confirmPairing(code: code, name: "mine").status == 200)
    }

    @Test func serveDashPairPrintsAWorkingLinkOnceListening() async throws {
        let server = try ShareServer(["--pair"])
        var link: String?
        _ = eventually {   // a functional bound: a loaded machine starts slowly
            link = server.serve.stderr.split(separator: "\n").first { $0.hasPrefix(server.url + "/pair?code=") }.map(String.init)
            return link != nil
        }
        let url = try #require(link, "serve --pair printed: \(server.serve.stderr)")
        #expect(server.serve.stderr.contains("█"))
        let page = try await Client.send("GET", url, headers: ["Accept": "text/html"])
        #expect(page.status == 200 && page.header("Set-Cookie") == nil)
        let code = try #require(URLComponents(string: url)?.queryItems?.first { $0.name == "code" }?.value)
        let reply = try await server.confirmPairing(code: code, name: "phone")
        #expect(reply.status == 200 && reply.header("Set-Cookie") != nil)
    }

    @Test func theCookieIsSecureBehindAnHTTPSPublicURL() async throws {
        let server = try ShareServer(["--public-url", "https://piper.example.org"])
        let (_, setCookie) = try await server.pair()
        #expect(setCookie.contains("; Secure"))
    }

    @Test func piperPairPrintsALinkAndAQRCode() throws {
        let home = try freshDirectory("pair")
        let result = try PiperBinaryRun.piper(["pair", "--url", "https://piper.example.org/"], home: home)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("https://piper.example.org/pair?code="))
        #expect(result.stderr.contains("█") && result.stderr.contains("valid 10 minutes"))
        let modules = try #require(TerminalQR.modules(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(modules.count >= 21 && modules.count == modules[0].count)
    }

    @Test func crossSitePostsAreRefusedEvenWithAValidCookie() async throws {
        let server = try ShareServer()
        let (cookie, _) = try await server.pair()
        let fromElsewhere = try await server.shareForm(["url": "https://example.com/"],
                                                      headers: ["Cookie": cookie, "Sec-Fetch-Site": "cross-site", "Accept": "application/json"])
        #expect(fromElsewhere.status == 403)
        #expect((try fromElsewhere.json()["error"] as? String)?.contains("Cross-site") == true)
        let otherOrigin = try await server.shareForm(["url": "https://example.com/"],
                                                    headers: ["Cookie": cookie, "Origin": "https://evil.example", "Accept": "application/json"])
        #expect(otherOrigin.status == 403)
        let token = try await Client.send("POST", server.url + "/tokens", body: Data("name=x".utf8),
                                          headers: ["Cookie": cookie, "Sec-Fetch-Site": "same-site", "Accept": "application/json",
                                                    "Content-Type": "application/x-www-form-urlencoded"])
        #expect(token.status == 403)
    }

    /// Devices can be told apart: each one's last use and the address it came from (the client
    /// a trusted proxy names), in `piper devices`.
    @Test func devicesShowTheirLastUseAndAddress() async throws {
        let server = try ShareServer(["--trusted-proxy", "127.0.0.1"])
        let (_, secret) = try server.registry.createToken(name: "kitchen tablet")
        _ = try await Client.send("GET", server.url + "/api/shares",
                                  headers: ["Authorization": "Bearer \(secret)", "X-Forwarded-For": "192.168.1.23"])
        let listed = try PiperBinaryRun.piper(["devices", "--json"], home: server.home)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let tablet = try #require(rows.first { $0["name"] as? String == "kitchen tablet" })
        #expect(tablet["lastAddress"] as? String == "192.168.1.23")
        #expect((tablet["lastUsed"] as? String)?.hasPrefix("20") == true, "\(tablet)")
        let text = try PiperBinaryRun.piper(["devices"], home: server.home)
        #expect(text.stdout.contains("kitchen tablet  (last used ") && text.stdout.contains("from 192.168.1.23)"), "\(text.stdout)")
    }

    /// A refused credential is told its own way out (a token is made again, a browser paired
    /// again), and a browser's refused share shows the link it carried.
    @Test func aRefusedCredentialNamesItsFixAndKeepsTheSharedLink() async throws {
        let server = try ShareServer()
        let (cookie, _) = try await server.pair(name: "old phone")
        #expect(try server.registry.revoke("old phone") != nil)
        let link = "https://example.com/article-to-keep"
        let page = try await server.shareForm(["url": link, "title": "Keep me"],
                                              headers: ["Cookie": cookie, "Accept": "text/html", "Sec-Fetch-Site": "none"])
        #expect(page.status == 401)
        #expect(page.text.contains("<h1>Not shared</h1>"))
        #expect(page.text.contains("pair it again with a link from &#39;piper pair&#39;") || page.text.contains("pair it again with a link from 'piper pair'"), "\(page.text)")
        #expect(page.text.contains("<li>\(link)</li>") && page.text.contains("<li>Keep me</li>"), "the shared link is shown, not lost")
        let script = try await server.shareJSON(["url": link], headers: ["Authorization": "Bearer 0123456789abcdef", "Accept": "application/json"])
        #expect(script.status == 401)
        let message = try #require(try script.json()["error"] as? String)
        #expect(message.contains("piper devices token NAME") && !message.contains("piper pair"), "\(message)")
        let nothing = try await Client.send("GET", server.url + "/", headers: ["Accept": "text/html"])
        #expect(nothing.status == 401 && nothing.text.contains("<h1>Not paired</h1>"))
        // A person at a phone is told how to pair it, not which header a script sends.
        #expect(!nothing.text.contains("Authorization") && nothing.text.contains("This browser is not paired with Piper yet"), "\(nothing.text)")
        #expect(nothing.text.contains("run <code>piper pair</code>"), "\(nothing.text)")
        let bare = try await Client.send("GET", server.url + "/api/shares", headers: ["Accept": "application/json"])
        #expect((try bare.json()["error"] as? String)?.contains("Authorization: Bearer <token>") == true, "a script is told: \(bare.text)")
    }

    /// Listening on every interface, serve says where a phone reaches it (this machine's
    /// addresses), never the wildcard (no client can connect to 0.0.0.0).
    @Test func serveOnEveryInterfaceSaysWhereToReachIt() throws {
        let serve = try ServeProcess(arguments: ["--host", "0.0.0.0"], home: try freshDirectory("wildcard"))
        defer { serve.stop(signal: SIGTERM) }
        let port = try #require(serve.url.split(separator: ":").last.map(String.init))
        let noted = eventually(within: 10) { serve.stderr.contains("Point clients at it") || serve.stderr.contains("no network address") }
        #expect(noted, "\(serve.stderr)")
        #expect(!serve.stderr.contains("0.0.0.0:\(port)"), "\(serve.stderr)")
        for address in NetworkAddresses.reachable() where !address.contains(":") {
            #expect(serve.stderr.contains("http://\(address):\(port)"), "\(address): \(serve.stderr)")
        }
    }

    /// A token outlives the cookie that made it: only the owner's browser on Piper's own page
    /// may mint one, never a GET, a navigation from elsewhere, a POST whose page is unknown, or
    /// a bearer token.
    @Test func aTokenIsMintedOnlyFromPipersOwnPage() async throws {
        let server = try ShareServer()
        let (cookie, _) = try await server.pair()
        func mint(_ method: String, _ headers: [String: String]) async throws -> Reply {
            try await Client.send(method, server.url + "/tokens", body: method == "POST" ? Data("name=x".utf8) : nil,
                                  headers: headers.merging(["Cookie": cookie, "Accept": "application/json",
                                                            "Content-Type": "application/x-www-form-urlencoded"]) { $1 })
        }
        #expect(try await mint("GET", ["Sec-Fetch-Site": "same-origin"]).status == 405)
        #expect(try await mint("POST", [:]).status == 403, "no fetch metadata and no Origin")
        #expect(try await mint("POST", ["Sec-Fetch-Site": "none"]).status == 403, "a navigation the user started elsewhere")
        #expect(try await mint("POST", ["Sec-Fetch-Site": "same-site", "Origin": server.url]).status == 403)
        #expect(try await mint("POST", ["Origin": "http://evil.example"]).status == 403)
        #expect(try await mint("POST", ["Origin": server.url]).status == 200, "an older browser's POST from Piper's page")
        #expect(try await mint("POST", ["Sec-Fetch-Site": "same-origin", "Origin": server.url]).status == 200)
        let byToken = try await Client.send("POST", server.url + "/tokens", body: Data("name=y".utf8),
                                            headers: try server.bearer.merging(["Content-Type": "application/x-www-form-urlencoded"]) { $1 })
        #expect(byToken.status == 403, "a bearer token only shares: it makes no token")
        #expect(try server.registry.devices().filter { $0.kind == "token" }.count == 2)
    }

    @Test func aNamedTokenSharesAndCanBeRevoked() async throws {
        let server = try ShareServer()
        let (cookie, _) = try await server.pair()
        let made = try await Client.send("POST", server.url + "/tokens", body: Data("name=iPhone".utf8),
                                         headers: ["Cookie": cookie, "Sec-Fetch-Site": "same-origin", "Origin": server.url,
                                                   "Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded"])
        #expect(made.status == 200)
        let secret = try #require(try made.json()["token"] as? String)
        let noURL = try await server.shareJSON(["text": "nothing to see"], headers: ["Authorization": "Bearer \(secret)", "Accept": "application/json"])
        #expect(noURL.status == 400)
        #expect(try noURL.json()["error"] as? String == "No URL found in share input")
        // A path names a file on the server: never shared from a client's text.
        for path in ["/etc/hostname", "file:///etc/hostname"] {
            let local = try await server.shareJSON(["text": path], headers: ["Authorization": "Bearer \(secret)", "Accept": "application/json"])
            #expect(local.status == 400, "\(path): \(local.text)")
            #expect(try local.json()["error"] as? String == "No URL found in share input")
        }
        #expect(try server.registry.revoke("iPhone") != nil)
        let revoked = try await server.shareJSON(["text": "nothing to see"], headers: ["Authorization": "Bearer \(secret)", "Accept": "application/json"])
        #expect(revoked.status == 401)
    }

    @Test func saveStaysAnonymousUnlessLocked() async throws {
        let open = try ShareServer()
        #expect(try await Client.save(open.url, title: "T", content: "<p>x</p>").status == 200)
        let locked = try ShareServer(["--save-requires-token"])
        #expect(try await Client.save(locked.url, title: "T", content: "<p>x</p>").status == 401)
        let body = try JSONSerialization.data(withJSONObject: ["title": "T", "content": "<p>x</p>"])
        let withToken = try await Client.send("POST", locked.url + "/save", body: body,
                                              headers: ["Content-Type": "application/json", "Authorization": "Bearer \(try locked.token())"])
        #expect(withToken.status == 200)
        // Reading a reader page never needs a credential.
        let page = try #require(try withToken.json()["url"] as? String)
        #expect(try await Client.get(page).status == 200)
    }
}

/// The built `piper` binary with `PIPER_HOME` set (ServeProcess finds it).
enum PiperBinaryRun {
    /// `timeZone`: the process's TZ (the CLI writes times in its own zone).
    static func piper(_ arguments: [String], home: URL, timeZone: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["PIPER_HOME"] = home.path
        if let timeZone { environment["TZ"] = timeZone }
        return try runProcessCapturing(piperExecutable.path, arguments, environment: environment)
    }
}
