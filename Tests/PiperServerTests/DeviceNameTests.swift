import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperServer

/// Device and token names through the built binary and a real `piper serve`: never Piper's own
/// (`share-token`), never an id, and a revoke that could mean two devices removes neither.
@Suite(.ownThread, .timeLimit(.minutes(3)))
struct DeviceNameTests {
    @Test func reservedAndIDShapedNamesAreRefusedByTheCLIAndTheServer() async throws {
        let server = try ShareServer()
        let first = try PiperBinaryRun.piper(["devices", "token", "Shortcut"], home: server.home)
        #expect(first.status == 0, "\(first.stderr)")
        let id = try #require(try server.registry.devices().first?.id)
        for name in ["share-token", "SHARE-TOKEN", id, "deadbeef"] {
            let made = try PiperBinaryRun.piper(["devices", "token", name], home: server.home)
            #expect(made.status == 64, "\(name): \(made.status) \(made.stderr)")
            #expect(made.stdout.isEmpty, "no token is printed for \(name)")
            #expect(made.stderr.contains(name.lowercased().hasPrefix("share") ? "is Piper's own" : "looks like a device id"), "\(made.stderr)")
        }
        let (owner, _) = try await server.pair(name: "my laptop")
        let minted = try await Client.send("POST", server.url + "/tokens", body: Data("name=share-token".utf8),
                                           headers: ["Cookie": owner, "Sec-Fetch-Site": "same-origin", "Accept": "application/json",
                                                     "Content-Type": "application/x-www-form-urlencoded"])
        let mintError = try minted.json()["error"] as? String
        #expect(minted.status == 400 && mintError?.contains("is Piper's own") == true, "\(minted.text)")
        let code = try server.registry.createPairing()
        let paired = try await server.confirmPairing(code: code, name: id)
        #expect(paired.status == 400 && paired.text.contains("looks like a device id"), "\(paired.text)")
        #expect(try server.registry.pairingIsPending(code), "the refused name left the code usable")
        #expect(try server.registry.devices().map(\.name) == ["Shortcut", "my laptop"])
        // The share token's bucket stays its own: piper share with it is not limited by another device.
        let shared = try await server.shareJSON(["text": "no link"], headers: try server.bearer)
        #expect(shared.status == 400)
    }

    /// A database from before the naming rules (a former `devices.json`) names a token like the
    /// laptop's id: `revoke` of that text removes neither and lists both (exit 65); each is then
    /// revoked by its id, and only the one named goes.
    @Test func revokeOfAnIDShapedNameRefusesWithTheCandidates() throws {
        let created = "2026-11-30T08:00:00Z"
        let file = """
            {"devices":[{"id":"ab12cd34","name":"laptop","kind":"browser","created":"\(created)","secretHash":"\(DeviceRegistry.hash("a"))"},
                        {"id":"ef56ab78","name":"ab12cd34","kind":"token","created":"\(created)","secretHash":"\(DeviceRegistry.hash("b"))"},
                        {"id":"01234567","name":"share-token","kind":"token","created":"\(created)","secretHash":"\(DeviceRegistry.hash("c"))"}],
             "pairings":[]}
            """
        let server = try ShareServer { home in try Data(file.utf8).write(to: home.appendingPathComponent("devices.json")) }
        let refused = try PiperBinaryRun.piper(["devices", "revoke", "ab12cd34"], home: server.home)
        #expect(refused.status == 65, "\(refused.status) \(refused.stderr)")
        #expect(refused.stderr.contains("laptop (id ab12cd34, browser)") && refused.stderr.contains("ab12cd34 (id ef56ab78, token)"),
                "\(refused.stderr)")
        #expect(try server.registry.devices().count == 3, "nothing was revoked")
        let listed = try PiperBinaryRun.piper(["devices"], home: server.home)
        #expect(listed.stdout.contains("share-token (renamed)"), "Piper's own name was given up: \(listed.stdout)")
        #expect(listed.stdout.contains("browser  owner") && listed.stdout.contains("token    share"), "\(listed.stdout)")
        let byID = try PiperBinaryRun.piper(["devices", "revoke", "ef56ab78"], home: server.home)
        #expect(byID.status == 0 && byID.stderr.contains("Revoked ab12cd34 (ef56ab78)"), "\(byID.stderr)")
        #expect(try server.registry.devices().map(\.id) == ["ab12cd34", "01234567"])
    }
}
