/// What a handler is given besides the request: who the route's access rule admitted.
struct RouteContext: Sendable {
    /// The credential the rule found (nil for open routes and for secrets the request carries).
    var credential: Credential?
    /// The name the access log records: the credential's, or "feed" for the feed's key.
    var device: String?
    /// The route's declared path parameters (`/shares/:id/retry` → `id`), as matched.
    var parameters: [String: String] = [:]

    /// A declared parameter's value (the table matched the route, so it is there).
    func parameter(_ name: String) throws -> String {
        guard let value = parameters[name] else { throw HTTPError.internalError }   // not in the route's pattern: a wiring bug
        return value
    }

    /// The credential of a route whose rule requires one.
    func requiredCredential() throws -> Credential {
        guard let credential else { throw HTTPError.internalError }   // the table declared the route open: a wiring bug
        return credential
    }
}

/// One method of one route: its access rule, its handler, and how its request is read. A
/// handler that `answersLater` replies from another thread (a save once committed, a share once
/// run) when the server calls `respond(to:reply:)`; `respond` is its synchronous form.
struct Endpoint: Sendable {
    typealias Reply = @Sendable (Result<HTTPResponse, any Error>) -> Void
    /// How the request's body reaches the handler: collected in memory (up to the server's
    /// limit), or `streamed` as it arrives (a multipart upload, written to files).
    enum Body: Sendable { case collected, streamed }

    let method: HTTPMethod
    let access: RouteAccess
    let respond: @Sendable (HTTPRequest, RouteContext) throws -> HTTPResponse
    let respondLater: (@Sendable (HTTPRequest, RouteContext, @escaping Reply) -> Void)?
    var body = Body.collected

    /// The server suspends the connection and waits for the reply (`respondLater`).
    var answersLater: Bool { respondLater != nil }

    static func get(_ access: RouteAccess, _ handler: @escaping @Sendable (HTTPRequest, RouteContext) throws -> HTTPResponse) -> Endpoint {
        Endpoint(method: .get, access: access, respond: handler, respondLater: nil)
    }

    static func post(_ access: RouteAccess, body: Body = .collected,
                     _ handler: @escaping @Sendable (HTTPRequest, RouteContext) throws -> HTTPResponse,
                     later: (@Sendable (HTTPRequest, RouteContext, @escaping Reply) -> Void)? = nil) -> Endpoint {
        Endpoint(method: .post, access: access, respond: handler, respondLater: later, body: body)
    }

    static func options(_ handler: @escaping @Sendable (HTTPRequest, RouteContext) throws -> HTTPResponse) -> Endpoint {
        Endpoint(method: .options, access: .open, respond: handler, respondLater: nil)
    }
}

/// A path pattern with its endpoints. `GET` answers `HEAD` too (libmicrohttpd sends no body).
struct Route: Sendable {
    enum Path: Sendable, Equatable {
        case exact(String)
        /// A path with declared parameters (`RoutePattern`): `/shares/:id/retry`.
        case pattern(RoutePattern)
        /// `/<uuid>`: a reader page.
        case readerID
    }

    let paths: [Path]
    let endpoints: [Endpoint]
    /// Answers found from the path alone, before the server parses a request (the cached
    /// reader pages): this route's fast path, asked by the server ahead of the table.
    var prepared: (any PreparedAnswers)?

    init(_ paths: [Path], _ endpoints: [Endpoint], prepared: (any PreparedAnswers)? = nil) {
        self.paths = paths
        self.endpoints = endpoints
        self.prepared = prepared
    }

    /// The endpoint for a method: `HEAD` is served by `GET`.
    func endpoint(for method: HTTPMethod) -> Endpoint? {
        let wanted = method == .head ? .get : method
        return endpoints.first { $0.method == wanted }
    }

    /// The `Allow` header's methods, in declaration order, `HEAD` beside `GET`.
    var allowed: [String] {
        endpoints.flatMap { $0.method == .get ? [HTTPMethod.get.rawValue, HTTPMethod.head.rawValue] : [$0.method.rawValue] }
    }
}

/// Every route of the server in one table (`Backend+Routes` declares it): the path, each
/// method's access rule and handler. It answers 404 for an unknown path and 405 (with `Allow`
/// from the table) for a method the path does not take, checks the access rule, and only then
/// runs the handler.
struct RouteTable: HTTPResponder, RequestPlanning {
    let routes: [Route]
    let access: AccessChecker
    private let exact: [String: Int]
    private let patterns: [(pattern: RoutePattern, index: Int)]
    private let reader: Int?

    init(_ routes: [Route], access: AccessChecker) {
        self.routes = routes
        self.access = access
        var exact: [String: Int] = [:], patterns: [(RoutePattern, Int)] = [], reader: Int?
        for (index, route) in routes.enumerated() {
            for path in route.paths {
                switch path {
                case .exact(let text):
                    precondition(exact[text] == nil, "\(text) is declared twice in the route table")
                    exact[text] = index
                case .pattern(let pattern):
                    precondition(!patterns.contains { $0.0 == pattern }, "\(pattern.text) is declared twice in the route table")
                    patterns.append((pattern, index))
                case .readerID: reader = index
                }
            }
        }
        self.exact = exact
        self.patterns = patterns
        self.reader = reader
    }

    /// The route that serves `path` and its parameters: an exact path, then a reader id, then
    /// the patterns in declaration order.
    func route(for path: String) -> (route: Route, parameters: [String: String])? {
        if let index = exact[path] { return (routes[index], [:]) }
        if let reader, UUIDPath.id(fromPath: path) != nil { return (routes[reader], [:]) }
        for (pattern, index) in patterns {
            if let parameters = pattern.match(path) { return (routes[index], parameters) }
        }
        return nil
    }

    /// The endpoint a request's head goes to, if any (no access check: that needs the body).
    private func endpoint(_ method: HTTPMethod, path: String) -> Endpoint? {
        route(for: path)?.route.endpoint(for: method)
    }

    func streamsBody(_ method: HTTPMethod, path: String) -> Bool { endpoint(method, path: path)?.body == .streamed }

    func answersLater(_ method: HTTPMethod, path: String) -> Bool { endpoint(method, path: path)?.answersLater == true }

    /// The fast paths the routes declare, asked in table order.
    var prepared: (any PreparedAnswers)? {
        let all = routes.compactMap(\.prepared)
        return all.count <= 1 ? all.first : PreparedInOrder(all)
    }

    /// The route's endpoint for the request and who it admits, or the answer to send instead
    /// (404, 405, or the access rule's refusal).
    func dispatch(_ request: HTTPRequest) throws -> (Endpoint, RouteContext) {
        guard let (route, parameters) = route(for: request.path) else { throw HTTPError.notFound }
        guard let endpoint = route.endpoint(for: request.method) else { throw HTTPError.methodNotAllowed(route.allowed) }
        var context = try access.admit(request, to: endpoint.access)
        context.parameters = parameters
        return (endpoint, context)
    }

    func respond(to request: HTTPRequest) throws -> HTTPResponse {
        do {
            let (endpoint, context) = try dispatch(request)
            return try endpoint.respond(request, context)
        } catch let refusal as AccessRefusal {
            request.upload?.abandon()
            return refusal.response
        } catch where !WebPage.wantsJSON(request) {
            return WebPage.page(for: error)
        }
    }

    func respond(to request: HTTPRequest, reply: @escaping @Sendable (Result<HTTPResponse, any Error>) -> Void) {
        // A browser's failure is a page in the app's style; a script's is JSON (`ErrorMiddleware`).
        let reply: @Sendable (Result<HTTPResponse, any Error>) -> Void = { result in
            if case .failure(let error) = result, !WebPage.wantsJSON(request) { return reply(.success(WebPage.page(for: error))) }
            reply(result)
        }
        let endpoint: Endpoint, context: RouteContext
        do {
            (endpoint, context) = try dispatch(request)
        } catch let refusal as AccessRefusal {
            request.upload?.abandon()
            return reply(.success(refusal.response))
        } catch {
            return reply(.failure(error))
        }
        guard let later = endpoint.respondLater else { return reply(Result { try endpoint.respond(request, context) }) }
        later(request, context, reply)
    }

    /// The refusal a request would get before its body is read (the streamed upload asks, so a
    /// refused client is answered before it sends a file), or nil when it may go on.
    func refusalBeforeBody(_ request: HTTPRequest) -> HTTPError? {
        do {
            _ = try dispatch(request)
            return nil
        } catch let refusal as AccessRefusal {
            return refusal.error
        } catch {
            return error as? HTTPError ?? .internalError
        }
    }
}

/// Several routes' fast paths, asked in turn.
final class PreparedInOrder: PreparedAnswers {
    let all: [any PreparedAnswers]
    init(_ all: [any PreparedAnswers]) { self.all = all }

    func preparedResponse(path: UnsafeBufferPointer<UInt8>) -> ReusableResponse? {
        for answers in all { if let found = answers.preparedResponse(path: path) { return found } }
        return nil
    }
}
