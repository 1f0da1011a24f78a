import Foundation
import PiperTestSupport
import Testing
@testable import PiperServer

/// An upgrade: `piper serve` started on a state folder that still has `devices.json` moves its
/// devices into the database, and a phone paired before the upgrade keeps sharing.
@Suite(.ownThread) struct CredentialImportTests {
    @Test func aDevicePairedBeforeTheUpgradeStillSharesAndTheFileIsSetAside() async throws {
        let home = try freshDirectory("upgrade")
        let secret = String(repeating: "ab", count: 32)
        let file = """
            {"devices":[{"id":"0a1b2c3d","name":"old phone","kind":"browser","created":"2026-11-30T08:00:00Z",
                         "secretHash":"\(DeviceRegistry.hash(secret))"}],"pairings":[]}
            """
        try Data(file.utf8).write(to: home.appendingPathComponent("devices.json"))
        let serve = try ServeProcess(arguments: [], home: home)
        let reply = try await Client.send("GET", serve.url + "/api/shares", headers: ["Cookie": "piper_device=\(secret)", "Accept": "application/json"])
        #expect(reply.status == 200, "\(reply.text)")
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("devices.json").path))
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent("devices.json.migrated").path))
        #expect(serve.stderr.contains("Moved 1 of 1 devices and 0 pending pairings from"), "\(serve.stderr)")
        let listed = try PiperBinaryRun.piper(["devices"], home: home)
        #expect(listed.stdout.contains("0a1b2c3d") && listed.stdout.contains("old phone"), "\(listed.stdout)")
        // Revoked through the database, the old cookie is refused.
        #expect(try PiperBinaryRun.piper(["devices", "revoke", "old phone"], home: home).status == 0)
        let after = try await Client.send("GET", serve.url + "/api/shares", headers: ["Cookie": "piper_device=\(secret)", "Accept": "application/json"])
        #expect(after.status == 401)
    }
}
