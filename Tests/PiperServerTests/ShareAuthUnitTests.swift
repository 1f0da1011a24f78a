import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperServer

/// The cross-site rules and credential parsing, header by header.
@Suite(.ownThread)
struct ShareAuthUnitTests {
    static func auth() throws -> ShareAuth {
        let publicURL = LateValue(), baseURL = LateValue()
        publicURL.set("https://read.example.org")
        baseURL.set("http://127.0.0.1:8080")
        return try ShareAuth(registry: DeviceRegistry(state: StateFolder(url: try freshDirectory("auth"))), publicURL: publicURL, baseURL: baseURL)
    }

    @Test(arguments: [
        ([:], true), (["Sec-Fetch-Site": "same-origin"], true), (["Sec-Fetch-Site": "none", "Origin": "null"], true),
        (["Sec-Fetch-Site": "same-origin", "Origin": "null"], true), (["Origin": "https://read.example.org"], true),
        (["Origin": "http://127.0.0.1:8080"], true), (["Sec-Fetch-Site": "same-site"], false), (["Sec-Fetch-Site": "cross-site"], false),
        (["Origin": "https://evil.example"], false), (["Origin": "null"], false),
        (["Sec-Fetch-Site": "same-origin", "Origin": "https://evil.example"], false), (["Origin": "https://read.example.org:444"], false),
    ] as [([String: String], Bool)])
    func crossSiteRules(_ headers: [String: String], _ allowed: Bool) throws {
        let request = HTTPRequest(method: "POST", path: "/share", headers: Dictionary(uniqueKeysWithValues: headers.map { ($0.key.lowercased(), $0.value) }))
        let refused = (try? Self.auth().refuseCrossSite(request)) == nil
        #expect(refused == !allowed, "\(headers)")
    }

    @Test func credentialsComeFromTheBearerOrTheCookie() throws {
        let auth = try Self.auth()
        let token = try auth.registry.shareToken()
        #expect(auth.credential(of: HTTPRequest(method: "GET", path: "/", headers: ["authorization": "Bearer \(token)"])) == .shareToken)
        let (device, secret) = try auth.registry.createToken(name: "phone")
        let byCookie = HTTPRequest(method: "GET", path: "/", headers: ["cookie": "a=b; piper_device=\(secret); c=d"])
        #expect(auth.credential(of: byCookie) == .device(device))
        #expect(auth.credential(of: HTTPRequest(method: "GET", path: "/", headers: ["cookie": "piper_device=\(token)"])) == nil,
                "the share token is a bearer token, not a cookie")
        #expect(auth.deviceCookie(secret).hasSuffix("HttpOnly; SameSite=Lax; Secure"))
    }
}
