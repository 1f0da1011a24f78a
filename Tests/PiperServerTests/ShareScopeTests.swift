import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperServer

/// What each credential may do, through a real `piper serve`: the owner's browser (paired with
/// `piper pair`) does the owner's actions; a share-only browser, a token and the share token are
/// refused them with a 403 that says why, and see only their own shares.
@Suite(.ownThread, .timeLimit(.minutes(3)))
struct ShareScopeTests {
    static let form = ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json", "Sec-Fetch-Site": "same-origin"]

    /// Every owner route, asked by `credential` (its headers): the statuses, in order.
    static func ownerRoutes(_ library: LibraryServer, _ credential: [String: String], removing id: String) async throws -> [(String, Reply)] {
        let url = library.url
        let headers = form.merging(credential) { $1 }
        return [
            ("GET /connect-x", try await Client.send("GET", url + "/connect-x", headers: credential.merging(["Accept": "application/json"]) { $1 })),
            ("POST /connect-x", try await Client.send("POST", url + "/connect-x", body: Data("forget=1".utf8), headers: headers)),
            ("POST /tokens", try await Client.send("POST", url + "/tokens", body: Data("name=minted".utf8), headers: headers)),
            // The library and its feed's secret are the owner's: a share-only credential outlives
            // nothing through them (the feed's key would keep working after its revocation).
            ("GET /library", try await Client.send("GET", url + "/library", headers: credential.merging(["Accept": "application/json"]) { $1 })),
            ("GET /library/feed-qr.svg", try await Client.send("GET", url + "/library/feed-qr.svg", headers: credential)),
            ("GET /media/ID", try await Client.send("GET", url + "/media/\(id)", headers: credential)),
            ("POST /library/remove", try await Client.send("POST", url + "/library/remove", body: Data("id=\(id)".utf8), headers: headers)),
        ]
    }

    @Test func ownerRoutesAreRefusedToShareOnlyCredentialsAndAllowedToTheOwner() async throws {
        let library = try LibraryServer(fixtures: [("sample.mp3", nil)])
        let server = library.server
        let id = try library.id("sample.mp3")
        let file = server.state.library.appendingPathComponent(try library.item("sample.mp3").path)
        let (guestCookie, _) = try await server.pair(name: "guest phone", scope: .share)
        let (_, tokenSecret) = try server.registry.createToken(name: "Shortcut")
        let shareOnly: [(String, [String: String])] = [
            ("a share-only browser", ["Cookie": guestCookie]),
            ("a token", ["Authorization": "Bearer \(tokenSecret)"]),
            ("the share token", ["Authorization": "Bearer \(try server.token())"]),
        ]
        let devicesBefore = try server.registry.devices().count
        for (who, credential) in shareOnly {
            for (route, reply) in try await Self.ownerRoutes(library, credential, removing: id) {
                #expect(reply.status == 403, "\(route) by \(who): \(reply.status) \(reply.text)")
                let error = (try? reply.json()["error"] as? String) ?? reply.text
                #expect(error.contains("This needs the owner's browser") && error.contains("may only share"), "\(route) by \(who): \(error)")
            }
        }
        #expect(try server.registry.devices().count == devicesBefore, "no token was minted")
        #expect(FileManager.default.fileExists(atPath: file.path), "nothing was removed")
        let page = try await Client.send("GET", library.url + "/connect-x", headers: ["Cookie": guestCookie, "Accept": "text/html"])
        #expect(page.status == 403 && page.text.contains("may only share"), "a browser is shown a page: \(page.text)")

        let (ownerCookie, _) = try await server.pair(name: "my laptop")
        let owner = try await Self.ownerRoutes(library, ["Cookie": ownerCookie, "Origin": library.url], removing: id)
        for (route, reply) in owner {
            #expect(reply.status == 200, "\(route) by the owner: \(reply.status) \(reply.text)")
        }
        #expect(try server.registry.devices().contains { $0.name == "minted" && $0.scope == .share }, "the owner's token is share-only")
        #expect(!FileManager.default.fileExists(atPath: file.path), "the owner removed the item")
    }

    /// A token cannot make a token (nor can the share token): only the owner's browser on
    /// Piper's page, or `piper devices token` on the server.
    @Test func aTokenCannotMintATokenButTheServersCLICan() async throws {
        let server = try ShareServer()
        let (_, secret) = try server.registry.createToken(name: "script")
        for bearer in [secret, try server.token()] {
            let minted = try await Client.send("POST", server.url + "/tokens", body: Data("name=child".utf8),
                                               headers: ["Authorization": "Bearer \(bearer)", "Accept": "application/json",
                                                         "Content-Type": "application/x-www-form-urlencoded"])
            #expect(minted.status == 403, "\(minted.text)")
        }
        #expect(try server.registry.devices().map(\.name) == ["script"])
        let made = try PiperBinaryRun.piper(["devices", "token", "child"], home: server.home)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stderr.contains("share-only"), "\(made.stderr)")
        let child = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let shared = try await server.shareJSON(["text": "nothing"], headers: ["Authorization": "Bearer \(child)", "Accept": "application/json"])
        #expect(shared.status == 400, "the CLI's token shares (and is told there is no URL): \(shared.text)")
    }

    /// A share-only credential sees its own shares in /api/shares, on the home page and at
    /// /shares/ID; the owner sees every device's.
    @Test func aShareOnlyCredentialSeesOnlyItsOwnShares() async throws {
        let server = try ShareServer()
        let (guest, _) = try await server.pair(name: "guest phone", scope: .share)
        let (owner, _) = try await server.pair(name: "my laptop")
        let byToken = try await server.shareJSON(["text": "no link here"], headers: try server.bearer)
        let byGuest = try await server.shareJSON(["text": "nor here"], headers: ["Cookie": guest, "Accept": "application/json",
                                                                               "Sec-Fetch-Site": "same-origin"])
        #expect(byToken.status == 400 && byGuest.status == 400)
        func listed(_ headers: [String: String]) async throws -> [String] {
            let reply = try await Client.send("GET", server.url + "/api/shares", headers: headers.merging(["Accept": "application/json"]) { $1 })
            return (try reply.json()["shares"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        }
        let all = try await listed(["Cookie": owner])
        #expect(all.count == 2)
        let guestOnly = try await listed(["Cookie": guest])
        let tokenOnly = try await listed(try server.bearer)
        #expect(guestOnly.count == 1 && tokenOnly.count == 1 && guestOnly != tokenOnly, "\(guestOnly) \(tokenOnly)")
        let other = try #require(tokenOnly.first)
        let refused = try await Client.send("GET", server.url + "/shares/\(other)", headers: ["Cookie": guest, "Accept": "text/html"])
        #expect(refused.status == 404, "another device's share is not shown")
        let shown = try await Client.send("GET", server.url + "/shares/\(other)", headers: ["Cookie": owner, "Accept": "text/html"])
        #expect(shown.status == 200)
        let home = try await Client.send("GET", server.url + "/", headers: ["Cookie": guest, "Accept": "text/html"])
        #expect(home.text.contains("data-share=\"\(try #require(guestOnly.first))\"") && !home.text.contains("data-share=\"\(other)\""))
    }

    /// `piper pair --share-only` pairs a browser that shares but cannot act as the owner, and
    /// is not shown the other devices.
    @Test func pairShareOnlyMakesABrowserThatOnlyShares() async throws {
        let server = try ShareServer()
        let paired = try PiperBinaryRun.piper(["pair", "--share-only", "--no-qr", "--url", server.url], home: server.home)
        #expect(paired.status == 0, "\(paired.stderr)")
        let link = try #require(paired.stdout.split(separator: "\n").first.map(String.init))
        let code = try #require(URLComponents(string: link)?.queryItems?.first { $0.name == "code" }?.value)
        let reply = try await server.confirmPairing(code: code, name: "friend's phone")
        #expect(reply.status == 200 && !reply.text.contains("id=\"devices\""), "\(reply.text)")
        let cookie = try #require(reply.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
        #expect(try server.registry.devices().first?.scope == .share)
        let connect = try await Client.send("GET", server.url + "/connect-x", headers: ["Cookie": cookie, "Accept": "application/json"])
        #expect(connect.status == 403)
        let shortcut = try await Client.send("GET", server.url + "/shortcut", headers: ["Cookie": cookie, "Accept": "text/html"])
        #expect(shortcut.status == 200 && shortcut.text.contains("id=\"owner-only\"") && !shortcut.text.contains("action=\"/tokens\""))
    }

    /// A cookies.txt pasted one column off puts a secret where the expiry goes: the refusal
    /// says which line and field are wrong, never the text that was there.
    @Test func aMalformedPastedCookieFileIsNotQuotedBack() async throws {
        let server = try ShareServer()
        let (owner, _) = try await server.pair(name: "my laptop")
        let secret = "SECRET-auth-0f9e8d7c6b5a"
        let pasted = "# Netscape HTTP Cookie File\n.x.com\tTRUE\t/\tTRUE\t\(secret)\tauth_token\tvalue\n"
        let body = "cookies=" + (pasted.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        for accept in ["text/html", "application/json"] {
            let reply = try await Client.send("POST", server.url + "/connect-x", body: Data(body.utf8),
                                              headers: ["Cookie": owner, "Sec-Fetch-Site": "same-origin", "Accept": accept,
                                                        "Content-Type": "application/x-www-form-urlencoded"])
            #expect(reply.status == 400, "\(reply.status) \(reply.text)")
            #expect(reply.text.contains("line 2") && reply.text.contains("expiry"), "which line and field: \(reply.text)")
            #expect(!reply.text.contains("SECRET"), "the pasted value is not shown back: \(reply.text)")
        }
    }
}
