import Foundation
import PiperNet
import PiperTestSupport
import Testing
@testable import PiperServer

/// `piper serve`'s own headless Chromium: a page built by script (its HTTP copy has no article)
/// is loaded in the server's browser, behind the guarded proxy, and saved; what the page's
/// script tries on the server's own network reaches nothing. X cookies are connected from a
/// paired browser's page, kept 0600 and never shown back.
@Suite(.ownThread, .timeLimit(.minutes(3)),
       .enabled(if: BrowserPageLoader.find() != nil || ProcessInfo.processInfo.environment["CI"] != nil, "chromium is not installed"))
struct ServerBrowserTests {
    @Test func aPageBuiltByScriptIsLoadedInTheGuardedBrowser() async throws {
        let canary = try TestHTTPServer(routes: ["/steal": .html("x"), "/pixel": .html("x")])
        let paragraphs = (1...6).map { "Paragraph \($0) of an article that only exists once the script of the page has run, long enough, with commas and clauses, to be read as the body." }
        let script = paragraphs.map { "p = document.createElement('p'); p.textContent = '\($0)'; a.appendChild(p);" }.joined()
        let site = try TestHTTPServer(routes: ["/app": .html("""
            <!doctype html><html><head><title>A page built by script</title></head><body><div id="root"></div>
            <script>var a = document.createElement('article'); var h = document.createElement('h1'); h.textContent = 'A page built by script';
            a.appendChild(h); var p; \(script) document.getElementById('root').appendChild(a);
            var tries = [fetch('http://127.0.0.1:\(canary.port)/steal').catch(function () {})];
            ['http://127.1:\(canary.port)/pixel', 'http://[::ffff:7f00:1]:\(canary.port)/pixel', 'http://2130706433:\(canary.port)/pixel'].forEach(function (u) {
              tries.push(new Promise(function (done) { var i = new Image(); i.onload = done; i.onerror = done; i.src = u; }));
            });
            Promise.all(tries).then(function () { fetch('/settled').catch(function () {}); });</script></body></html>
            """), "/settled": .html("ok")])
        let server = try ShareServer(["--allow-host", "localhost"])
        let reply = try await server.shareJSON(["url": "http://localhost:\(site.port)/app"], headers: try server.bearer)
        #expect(reply.status == 200, "\(reply.text)")
        let reader = try await Client.get(try #require(try reply.json()["url"] as? String))
        #expect(reader.text.contains("Paragraph 6 of an article that only exists once the script of the page"), "the browser's copy was saved")
        // Every try has ended once the page asks its own server for /settled (allowed by
        // --allow-host): only then is the canary's silence an answer.
        #expect(eventually(within: 30) { ((try? site.requests("/settled")) ?? []).count >= 1 }, "the page's tries all ended")
        let seen = try canary.requests().map(\.path)
        #expect(seen.isEmpty, "the page's script reached nothing local: \(seen)")
    }

    /// The server's browser killed (SIGKILL) while a share loads a page in it: that share fails
    /// with the reason, and the next share starts a new browser and is saved.
    @Test func aBrowserKilledDuringAShareFailsItAndTheNextShareStartsANewOne() async throws {
        let paragraphs = (1...6).map { "Paragraph \($0) of a page built by script, long enough, with commas and clauses, to be read as the body of an article." }
        let script = paragraphs.map { "p = document.createElement('p'); p.textContent = '\($0)'; a.appendChild(p);" }.joined()
        let page = """
            <!doctype html><html><head><title>Built by script</title></head><body><div id="root"></div>
            <script>var a = document.createElement('article'); var p; \(script) document.getElementById('root').appendChild(a);</script>
            <img src="/slow-image"></body></html>
            """
        let site = try TestHTTPServer(routes: ["/app": .html(page), "/slow-image": TestHTTPServer.Route(body: "x", delay: 25)])
        let server = try ShareServer(["--allow-host", "localhost"])
        let serverPID = server.serve.process.processIdentifier
        // The first share runs in curl (a process of its own) while the test kills the browser.
        let first = Process()
        first.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        first.arguments = ["-s", "-w", "\\n%{http_code}", "-X", "POST", server.url + "/share", "-H", "Authorization: Bearer \(try server.token())",
                           "-H", "Accept: application/json", "-H", "Content-Type: application/json",
                           "--data", "{\"url\": \"http://localhost:\(site.port)/app\"}"]
        let output = Pipe()
        first.standardOutput = output
        try first.run()
        // Once the page waits on its slow image, the browser is the server's child: kill it.
        let waiting = eventually(within: 30) { ((try? site.requests("/slow-image")) ?? []).count >= 1 }
        #expect(waiting, "the page was loading in the server's browser")
        let browsers = Self.children(of: serverPID).filter { Self.command(of: $0).contains("chromium") }
        #expect(!browsers.isEmpty, "the server's browser runs as its child")
        for pid in browsers { kill(pid, SIGKILL) }
        first.waitUntilExit()
        let answer = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(answer.hasSuffix("\n502"), "\(answer)")
        #expect(answer.contains("Chromium stopped while loading the page"), "\(answer)")

        let quick = try TestHTTPServer(routes: ["/app": .html(page.replacingOccurrences(of: "<img src=\"/slow-image\">", with: ""))])
        let next = try await server.shareJSON(["url": "http://localhost:\(quick.port)/app"], headers: try server.bearer)
        #expect(next.status == 200, "\(next.text)")
        let again = Self.children(of: serverPID).filter { Self.command(of: $0).contains("chromium") }
        #expect(!again.isEmpty && Set(again).isDisjoint(with: browsers), "a new browser: \(browsers) then \(again)")
    }

    /// The processes whose parent is `pid` (from /proc).
    static func children(of pid: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { child in
            guard let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && Int32(fields[1]) == pid
        }
    }

    static func command(of pid: Int32) -> String {
        (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8))?.replacingOccurrences(of: "\0", with: " ") ?? ""
    }

    @Test func xCookiesAreConnectedFromAPairedBrowserAndNeverShownBack() async throws {
        let server = try ShareServer()
        let (cookie, _) = try await server.pair()
        let headers = ["Cookie": cookie, "Accept": "text/html", "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded"]
        let empty = try await Client.send("GET", server.url + "/connect-x", headers: ["Cookie": cookie, "Accept": "text/html"])
        #expect(empty.status == 200 && empty.text.contains("Not connected"))
        let future = Int(Date().timeIntervalSince1970) + 86_400
        let text = "# Netscape HTTP Cookie File\n.x.com\tTRUE\t/\tTRUE\t\(future)\tauth_token\tsecret-value-123\n"
            + ".x.com\tTRUE\t/\tTRUE\t\(future)\tct0\tcsrf-value\n.example.com\tTRUE\t/\tTRUE\t\(future)\tother\tnope\n"
        let body = "cookies=" + (text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        let connected = try await Client.send("POST", server.url + "/connect-x", body: Data(body.utf8), headers: headers)
        #expect(connected.status == 200 && connected.text.contains("Connected."), "\(connected.text)")
        #expect(!connected.text.contains("secret-value-123"), "a cookie's value is never shown back")
        let file = server.home.appendingPathComponent("cookies.txt")
        let stored = try String(contentsOf: file, encoding: .utf8)
        #expect(stored.contains("auth_token") && !stored.contains("example.com"), "only X's cookies are kept")
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)
        let crossSite = try await Client.send("POST", server.url + "/connect-x", body: Data(body.utf8),
                                              headers: headers.merging(["Sec-Fetch-Site": "cross-site"]) { $1 })
        #expect(crossSite.status == 403)
        let forgotten = try await Client.send("POST", server.url + "/connect-x", body: Data("forget=1".utf8), headers: headers)
        #expect(forgotten.text.contains("Forgotten") && !FileManager.default.fileExists(atPath: file.path))
    }
}
