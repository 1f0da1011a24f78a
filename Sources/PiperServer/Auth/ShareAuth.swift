import Foundation
import PiperCore

/// Who a request comes from, once authenticated.
public enum Credential: Sendable, Equatable {
    /// The server's share token (`Authorization: Bearer`).
    case shareToken
    /// A paired browser (its cookie) or a named token.
    case device(Device)

    /// The name access log lines and share records carry.
    public var name: String {
        switch self {
        case .shareToken: return "share-token"
        case .device(let device): return device.name
        }
    }
}

/// Decides who may share: a bearer token (the share token or a device's) or the device cookie,
/// and refuses cross-site requests (`Sec-Fetch-Site`, `Origin`). Reading reader pages needs none
/// of this.
public struct ShareAuth: Sendable {
    public static let cookieName = "piper_device"
    public let registry: DeviceRegistry
    let shareToken: String
    let publicURL: LateValue
    let baseURL: LateValue
    /// Peers whose forwarding headers say the scheme and host a request was sent to.
    let trustedProxies: Set<String>

    init(registry: DeviceRegistry, publicURL: LateValue, baseURL: LateValue, trustedProxies: Set<String> = []) throws {
        self.registry = registry
        shareToken = try registry.shareToken()
        self.publicURL = publicURL
        self.baseURL = baseURL
        self.trustedProxies = trustedProxies
    }

    /// The request's credential, or nil when it carries none that is valid (revoked included).
    public func credential(of request: HTTPRequest) -> Credential? {
        if let authorization = request.header("Authorization"), authorization.lowercased().hasPrefix("bearer ") {
            let token = authorization.dropFirst(7).trimmingCharacters(in: .whitespaces)
            if DeviceRegistry.same(token, shareToken) { return .shareToken }
            return (try? registry.device(forSecret: token)).flatMap { $0 }.map { used($0, request) }
        }
        if let secret = Self.cookie(Self.cookieName, in: request.header("Cookie")),
           let device = (try? registry.device(forSecret: secret)) ?? nil {
            return used(device, request)
        }
        return nil
    }

    /// The device's credential, its use recorded (when and from where; a failure to record
    /// costs the record, never the request).
    private func used(_ device: Device, _ request: HTTPRequest) -> Credential {
        let address = ClientAddress.resolve(peer: request.clientAddress, forwardedFor: request.header("X-Forwarded-For"),
                                            trustedProxies: trustedProxies)
        try? registry.noteUse(of: device, address: address)
        return .device(device)
    }

    /// A request with no credential at all, as a script reads it (a page says it for people:
    /// `WebPage.failure`).
    static let unpaired = "Sharing needs a paired device or a token: run 'piper pair' on the server, or send Authorization: Bearer <token>"

    /// The credential, or a 401 that says how to get one (HTML for browsers, JSON otherwise).
    func require(_ request: HTTPRequest) throws -> Credential {
        if let credential = credential(of: request) { return credential }
        // The way out depends on the credential that failed: a token is made again, a browser
        // is paired again.
        let reason: String
        if request.header("Authorization") != nil {
            reason = "This token is not valid (revoked or mistyped): make a new one with 'piper devices token NAME' on the server, "
                + "or on Piper's Shortcut page"
        } else if Self.cookie(Self.cookieName, in: request.header("Cookie")) != nil {
            reason = "Piper doesn't know this browser's pairing (it may have been revoked): pair it again with a link from 'piper pair' on the server"
        } else {
            reason = Self.unpaired
        }
        throw HTTPError(401, reason, headers: [("WWW-Authenticate", "Bearer realm=\"piper\"")])
    }

    /// Refuses a state-changing request another site made the browser send. A browser's
    /// `Sec-Fetch-Site` decides (`same-origin`, or `none` for the OS share sheet's navigation;
    /// the Origin may then be opaque, e.g. under a no-referrer policy); without it (older
    /// browsers) the `Origin`, when sent, must be this server's: the one the request was sent
    /// to (`RequestOrigin`), or the configured public or base URL. The refusal says both.
    func refuseCrossSite(_ request: HTTPRequest) throws {
        if let site = request.header("Sec-Fetch-Site")?.lowercased() {
            guard site == "same-origin" || site == "none" else {
                throw HTTPError(403, "Cross-site requests cannot share (Sec-Fetch-Site: \(site)); share from \(ownOrigins(request)[0])")
            }
            if let origin = request.header("Origin"), origin != "null", !isOwn(origin, request) {
                throw crossSite(origin, request)
            }
            return
        }
        if let origin = request.header("Origin"), !isOwn(origin, request) {
            throw crossSite(origin, request)
        }
    }

    private func crossSite(_ origin: String, _ request: HTTPRequest) -> HTTPError {
        HTTPError(403, "Cross-site requests cannot share (Origin: \(origin)); this server is \(ownOrigins(request).joined(separator: " or "))")
    }

    /// The origins that count as this site for `request`: the one it was sent to first.
    func ownOrigins(_ request: HTTPRequest) -> [String] {
        var origins: [String] = []
        for candidate in [RequestOrigin.of(request, trustedProxies: trustedProxies), publicURL.get(), baseURL.get()].compactMap({ $0 }) {
            let origin = RequestOrigin.normalized(candidate)
            if !candidate.isEmpty, !origins.contains(origin) { origins.append(origin) }
        }
        return origins
    }

    func isOwn(_ origin: String, _ request: HTTPRequest) -> Bool {
        ownOrigins(request).contains(RequestOrigin.normalized(origin))
    }

    /// The `Set-Cookie` value for a paired device: `Secure` when the browser reached the server
    /// over HTTPS (through a TLS proxy) or the public URL is HTTPS.
    func deviceCookie(_ secret: String, for request: HTTPRequest) -> String {
        let https = (RequestOrigin.of(request, trustedProxies: trustedProxies) ?? publicURL.get()).lowercased().hasPrefix("https:")
            || publicURL.get().lowercased().hasPrefix("https:")
        return "\(Self.cookieName)=\(secret); Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax\(https ? "; Secure" : "")"
    }

    /// True when the request's page is a secure context (HTTPS or loopback): where a web app
    /// can be installed into the share sheet.
    func isSecureContext(_ request: HTTPRequest) -> Bool {
        RequestOrigin.isSecureContext(RequestOrigin.of(request, trustedProxies: trustedProxies) ?? publicURL.get())
    }

    /// One cookie's value from a `Cookie` header.
    static func cookie(_ name: String, in header: String?) -> String? {
        guard let header else { return nil }
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }
}

extension ShareAuth {
    /// What a form POST of Piper's own pages may do: a `POST` (else 405) from this site
    /// (`refuseCrossSite`) with a credential (`require`). A refusal comes back as the answer to
    /// send, a web page or JSON by `Accept`, so every page route refuses the same way.
    func sameSitePost(_ request: HTTPRequest) throws -> SameSitePost {
        guard request.method == "POST" else { throw HTTPError.methodNotAllowed(["POST"]) }
        do {
            try refuseCrossSite(request)
            return .allowed(try require(request))
        } catch let error as HTTPError {
            return .refused(WebPage.wantsJSON(request) ? .error(error)
                            : WebPage.failure(error, kept: AccessChecker.sharedText(request)), error)
        }
    }
}

extension ShareAuth {
    /// What may mint a credential (`POST /tokens`, which the route table also restricts to the
    /// owner: no bearer credential is the owner's, so a token never makes a token): a paired
    /// browser's POST that proves it came from one of this server's own pages: `Sec-Fetch-Site:
    /// same-origin`, or, from a browser that sends no fetch metadata, an `Origin` of this server.
    /// Unlike a share, a navigation the user started elsewhere (`none`) or a POST with no origin
    /// at all does not count: a token outlives the cookie that made it, so minting one is never
    /// done on a request whose page is unknown.
    func mintingPost(_ request: HTTPRequest) throws -> SameSitePost {
        let answer = try sameSitePost(request)
        guard case .allowed = answer, request.header("Authorization") == nil else { return answer }
        let site = request.header("Sec-Fetch-Site")?.lowercased()
        let proven = site.map { $0 == "same-origin" } ?? request.header("Origin").map { isOwn($0, request) } ?? false
        guard proven else {
            let error = HTTPError(403, "A token is made only from Piper's own page (Sec-Fetch-Site: \(site ?? "absent"), Origin: \(request.header("Origin") ?? "absent"))")
            return .refused(WebPage.wantsJSON(request) ? .error(error) : WebPage.failure(error), error)
        }
        return answer
    }
}

/// `ShareAuth.sameSitePost`'s answer: the credential, or the refusal to send (and its error).
enum SameSitePost {
    case allowed(Credential)
    case refused(HTTPResponse, HTTPError)
}
