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
        return try ShareAuth(registry: try DeviceRegistry(state: StateFolder(url: try freshDirectory("auth"))), publicURL: publicURL, baseURL: baseURL)
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
        #expect(auth.deviceCookie(secret, for: byCookie).hasSuffix("HttpOnly; SameSite=Lax; Secure"))
    }

    /// "This site" is the origin the request was sent to: any name the server is reached by,
    /// and through a trusted proxy the scheme and host it forwards (from no one else).
    @Test(arguments: [
        // (peer, headers, allowed)
        ("127.0.0.1", ["Host": "piper.lan:8090", "Origin": "http://piper.lan:8090"], true),
        ("127.0.0.1", ["Host": "localhost:8080", "Origin": "http://localhost:8080"], true),
        ("127.0.0.1", ["Host": "piper.lan", "Origin": "http://piper.lan:80"], true),
        ("127.0.0.1", ["Host": "piper.lan:8090", "Origin": "http://evil.example"], false),
        ("127.0.0.1", ["Host": "piper.lan:8090", "Origin": "https://piper.lan:8090"], false),
        ("10.0.0.2", ["Host": "piper.internal", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "piper.example.net",
                      "Origin": "https://piper.example.net"], true),
        ("10.0.0.2", ["Host": "piper.internal", "Forwarded": "for=198.51.100.1;proto=https;host=phone.example.net, for=10.0.0.9",
                      "Origin": "https://phone.example.net"], true),
        ("10.0.0.2", ["Host": "piper.internal", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "piper.example.net",
                      "Origin": "http://piper.internal"], false),
        ("192.0.2.7", ["Host": "piper.internal", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example",
                       "Origin": "https://evil.example"], false),
    ] as [(String, [String: String], Bool)])
    func anyAddressTheRequestWasSentTo(_ peer: String, _ headers: [String: String], _ allowed: Bool) throws {
        let publicURL = LateValue(), baseURL = LateValue()
        publicURL.set("http://127.0.0.1:8080")
        baseURL.set("http://127.0.0.1:8080")
        let auth = try ShareAuth(registry: try DeviceRegistry(state: StateFolder(url: try freshDirectory("auth"))), publicURL: publicURL,
                                 baseURL: baseURL, trustedProxies: ["10.0.0.2"])
        let request = HTTPRequest(method: "POST", path: "/pair", headers: Dictionary(uniqueKeysWithValues: headers.map { ($0.key.lowercased(), $0.value) }),
                                  clientAddress: peer)
        var error: HTTPError?
        do { try auth.refuseCrossSite(request) } catch let refusal as HTTPError { error = refusal }
        #expect((error == nil) == allowed, "\(peer) \(headers): \(error?.message ?? "allowed")")
        if let error {
            #expect(error.message.contains("this server is "), "the refusal says what was expected: \(error.message)")
        }
    }

    @Test func secureContextsAndCookies() throws {
        #expect(RequestOrigin.isSecureContext("https://piper.example.net"))
        #expect(RequestOrigin.isSecureContext("http://localhost:8080") && RequestOrigin.isSecureContext("http://127.0.0.1:8080"))
        #expect(RequestOrigin.isSecureContext("http://[::1]:8080"))
        #expect(!RequestOrigin.isSecureContext("http://piper.lan:8090") && !RequestOrigin.isSecureContext("http://192.168.1.5:8080"))
        let publicURL = LateValue(), baseURL = LateValue()
        publicURL.set("http://127.0.0.1:8080")
        baseURL.set("http://127.0.0.1:8080")
        let auth = try ShareAuth(registry: try DeviceRegistry(state: StateFolder(url: try freshDirectory("auth"))), publicURL: publicURL,
                                 baseURL: baseURL, trustedProxies: ["127.0.0.1"])
        let proxied = HTTPRequest(method: "POST", path: "/pair", headers: ["host": "127.0.0.1:8080", "x-forwarded-proto": "https",
                                                                          "x-forwarded-host": "piper.example.net"], clientAddress: "127.0.0.1")
        #expect(auth.deviceCookie("s", for: proxied).hasSuffix("; Secure"), "reached over HTTPS through the proxy")
        #expect(auth.isSecureContext(proxied))
        let lan = HTTPRequest(method: "POST", path: "/pair", headers: ["host": "piper.lan:8090"], clientAddress: "192.168.1.9")
        #expect(!auth.deviceCookie("s", for: lan).contains("Secure"))
        #expect(!auth.isSecureContext(lan))
    }
}
