import Foundation

/// Who may call an endpoint: declared beside it in the route table, checked by `AccessChecker`
/// before its handler runs.
indirect enum RouteAccess: Sendable {
    /// Anyone: reader pages, health, public assets, `/save` (unless `--save-requires-token`).
    case open
    /// A secret the request itself carries, which only its handler can check: the feed's secret
    /// in its path (podcast apps send nothing else).
    case secretInRequest
    /// A POST from this site (`Sec-Fetch-Site`, `Origin`) carrying a secret its handler checks:
    /// a pairing code.
    case sameSiteSecret
    /// A paired device or token. `json`: refused with `{"error"}` (scripts, `/api/…`);
    /// `negotiated`: a page for a browser, JSON when the client asks for it.
    case paired(Refusal)
    /// A paired device or token, or the feed's key as `?key=` (what podcast apps send).
    case pairedOrFeedKey
    /// A POST from this site with a credential (a share, a removal).
    case sameSitePost
    /// A POST proven to come from Piper's own page, or with a bearer token (which `.owner` then
    /// refuses): making a token.
    case minting
    /// The rule, and then an owner's credential (`DeviceScope`): a share-only one is refused
    /// with a 403 that says so. A request the rule admits without a credential (the feed's key
    /// to the library) passes.
    case owner(RouteAccess)

    enum Refusal: Sendable { case json, negotiated }
}

/// A refusal the access rule answers with as it is (a page or JSON), not as a thrown error.
struct AccessRefusal: Error {
    let error: HTTPError
    let response: HTTPResponse
}

/// Checks `RouteAccess` rules against a request. Without sharing there is no `auth`, and only
/// open routes are declared.
struct AccessChecker: Sendable {
    let auth: ShareAuth?
    /// The feed's secret, for `pairedOrFeedKey` (nil: the library is not served).
    let feed: FeedSecret?

    /// Who the rule admits, or throws: an `HTTPError` (sent as JSON) or an `AccessRefusal`.
    func admit(_ request: HTTPRequest, to access: RouteAccess) throws -> RouteContext {
        switch access {
        case .open, .secretInRequest:
            return RouteContext()
        case .sameSiteSecret:
            do { try sharing().refuseCrossSite(request) } catch let error as HTTPError { throw refusal(error, request, heading: "Pairing failed") }
            return RouteContext()
        case .paired(let style):
            do {
                let credential = try sharing().require(request)
                return RouteContext(credential: credential, device: credential.name)
            } catch let error as HTTPError where style == .negotiated {
                throw refusal(error, request)
            }
        case .pairedOrFeedKey:
            guard let feed else { throw HTTPError.internalError }
            let auth = try sharing()
            if let credential = auth.credential(of: request) { return RouteContext(credential: credential, device: credential.name) }
            if let key = request.query["key"], feed.accepts(key) { return RouteContext(device: "feed") }
            if request.query["key"] != nil { throw HTTPError(403, "This feed link was revoked; subscribe again with the new one") }
            let credential = try auth.require(request)
            return RouteContext(credential: credential, device: credential.name)
        case .sameSitePost:
            return try admitted(try sharing().sameSitePost(request))
        case .minting:
            return try admitted(try sharing().mintingPost(request))
        case .owner(let rule):
            let context = try admit(request, to: rule)
            guard let credential = context.credential, !credential.isOwner else { return context }
            let error = DeviceScope.ownerOnly(credential)
            if case .paired(.json) = rule { throw error }
            throw refusal(error, request, heading: "Not allowed")
        }
    }

    private func sharing() throws -> ShareAuth {
        guard let auth else { throw HTTPError.internalError }   // a credentialed route without sharing: a wiring bug
        return auth
    }

    private func admitted(_ answer: SameSitePost) throws -> RouteContext {
        switch answer {
        case .allowed(let credential): return RouteContext(credential: credential, device: credential.name)
        case .refused(let response, let error): throw AccessRefusal(error: error, response: response)
        }
    }

    /// A page for a browser, JSON for a script (`Accept`), as every page route refuses. A
    /// refused share shows the link it carried, so it is not lost.
    private func refusal(_ error: HTTPError, _ request: HTTPRequest, heading: String = "Not shared") -> AccessRefusal {
        if WebPage.wantsJSON(request) { return AccessRefusal(error: error, response: .error(error)) }
        return AccessRefusal(error: error, response: WebPage.failure(error, heading: heading, kept: Self.sharedText(request)))
    }

    /// What a refused share carried (its url, text and title, from a form, JSON or the query),
    /// to show on the refusal page. A multipart body is refused before it is read: nothing.
    static func sharedText(_ request: HTTPRequest) -> [String] {
        guard request.path == "/share" else { return [] }
        var fields = request.query
        if request.method == "POST", let body = try? ShareRoute.fields(of: request) { fields.merge(body) { $1 } }
        return ["url", "text", "title"].compactMap { fields[$0] }.filter { !$0.isEmpty }
    }
}

extension RouteAccess.Refusal: Equatable {}
