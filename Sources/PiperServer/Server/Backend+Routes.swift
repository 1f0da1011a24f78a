import Foundation

extension Backend {
    /// Every route of the server, declared once: its paths, and for each method the access rule
    /// (`RouteAccess`) and the handler. 404, 405 with `Allow`, and the access checks come from
    /// this table (`RouteTable`); the sharing and library routes exist only with sharing on.
    static func routes(store: any Store, configuration: BackendConfiguration, publicURL: LateValue,
                       auth: ShareAuth?) -> RouteTable {
        let save = SaveRoute(store: store, limiter: configuration.limiter("save", perMinute: configuration.savesPerMinute, burst: configuration.saveBurst),
                             publicURL: publicURL, ttl: configuration.ttl, trustedProxies: configuration.trustedProxies,
                             clock: configuration.clock, log: configuration.http.log)
        let reader = ReaderRoute(store: store, cache: PageCache(limit: configuration.pageCacheSize), publicURL: publicURL,
                                 sourceGrace: configuration.sourceGrace, clock: configuration.clock)
        let health = HealthRoute(store: store, parts: configuration.parts)
        // `--save-requires-token` (with sharing on: the credentials are its).
        let saveAccess: RouteAccess = configuration.saveRequiresToken && auth != nil ? .paired(.json) : .open
        var routes = [
            Route([.exact("/save")], [
                .post(saveAccess, { request, _ in try save.save(request) },
                      later: { request, _, reply in save.save(request, reply: reply) }),
                .options { request, _ in save.preflight(request) },
            ]),
            Route([.exact("/healthz")], [.get(.open) { request, _ in try health.check(request) }]),
            Route([.readerID], [.get(.open) { request, _ in try reader.page(request) }], prepared: CachedReaderPages(reader)),
        ]
        var feed: FeedSecret?
        if let services = configuration.share, let auth {
            let saver = StoreSaveClient(store: store, publicURL: publicURL, ttl: configuration.ttl, clock: configuration.clock)
            let runner = ShareRunner(services: services, saver: saver, ledger: auth.registry.credentials)
            let share = ShareRoute(runner: runner, limiter: configuration.limiter("share", perMinute: services.sharesPerMinute, burst: services.shareBurst),
                                   clock: configuration.clock, keys: ShareKeys(ledger: auth.registry.credentials, clock: configuration.clock))
            let pair = PairRoute(auth: auth, clock: configuration.clock)
            let follows = FollowRoute(state: services.state, fetchGuard: services.fetchGuard, store: services.follows)
            let web = WebAppRoute(auth: auth, runner: runner, publicURL: publicURL, clock: configuration.clock, follows: follows)
            let shelf = LibraryShelf(state: services.state, credentials: auth.registry.credentials, catalog: services.catalog)
            feed = shelf.feed
            // The feed's secret exists from the start (a former file's moved into the store), so
            // each request only reads it.
            do { _ = try shelf.feed.current() } catch { RequestLog.standardError.write("cannot make the feed's secret: \(error)") }
            let media = MediaRoute(shelf: shelf)
            let podcast = FeedRoute(shelf: shelf, publicURL: publicURL)
            let library = LibraryPageRoute(shelf: shelf, publicURL: publicURL)
            let connectX = ConnectXPage(cookies: services.cookies, clock: configuration.clock)
            routes += [
                Route([.exact("/share")], [
                    .get(.paired(.negotiated)) { request, context in try share.confirmation(request, context) },
                    // A multipart share (files) streams to disk as it arrives.
                    .post(.sameSitePost, body: .streamed, { request, context in try share.share(request, context) },
                          later: { request, context, reply in
                              // The token API's {"url": FEED, "follow": true} follows the show.
                              guard FollowRoute.asksToFollow(request) else { return share.share(request, context, reply: reply) }
                              DispatchQueue.global().async { reply(Result { try follows.follow(request, context) }) }
                          }),
                ]),
                Route([.exact("/follows")], [
                    .get(.paired(.negotiated)) { request, context in try follows.list(request, context) },
                    .post(.sameSitePost, { request, context in try follows.follow(request, context) },
                          later: { request, context, reply in DispatchQueue.global().async { reply(Result { try follows.follow(request, context) }) } }),
                ]),
                Route([.pattern("/shares/:ids")], [.get(.paired(.negotiated)) { request, context in try share.resultPage(request, context) }]),
                // Try again, with the share's own access.
                Route([.pattern("/shares/:id/retry")], [
                    .post(.sameSitePost, { request, context in share.retry(request, context) },
                          later: { request, context, reply in share.retry(request, context, reply: reply) }),
                ]),
                Route([.exact("/pair")], [
                    .get(.open) { request, _ in try pair.confirmation(request) },   // shows a form; the code is used by the POST
                    .post(.sameSiteSecret) { request, _ in try pair.pair(request) },
                ]),
                Route([.exact("/")], [.get(.paired(.negotiated)) { request, context in try web.home(request, context) }]),
                Route([.exact("/api/shares")], [.get(.paired(.json)) { _, context in try web.shares(context) }]),
                Route([.exact("/shortcut")], [.get(.paired(.negotiated)) { _, context in try web.shortcut(context) }]),
                Route([.exact("/tokens")], [.post(.owner(.minting)) { request, context in try web.token(request, context) }]),
                Route([.exact(ConnectXPage.path)], [
                    .get(.owner(.paired(.negotiated))) { _, context in try connectX.page(context) },
                    .post(.owner(.sameSitePost)) { request, context in try connectX.change(request, context) },
                ]),
                Route(WebAppRoute.assetPaths.map(Route.Path.exact), [
                    .get(.open) { request, _ in try WebAppRoute.asset(request.path) ?? { throw HTTPError.notFound }() },
                ]),
                // `/media/<id>[.ext]` and `/media/<id>/cover[.ext]`.
                Route([.pattern("/media/:file"), .pattern("/media/:id/:part")], [
                    .get(.owner(.pairedOrFeedKey)) { request, context in try media.media(request, context) },
                ]),
                Route([.pattern("/feed/:feed...")], [.get(.secretInRequest) { request, context in try podcast.feed(request, context) }]),
                Route([.exact("/library"), .exact("/library/")], [
                    .get(.owner(.paired(.negotiated))) { request, context in try library.page(request, context) },
                ]),
                Route([.exact("/library/feed-qr.svg")], [.get(.owner(.paired(.negotiated))) { _, context in try library.feedQR(context) }]),
                Route([.exact("/library/remove")], [.post(.owner(.sameSitePost)) { request, context in try library.remove(request, context) }]),
                Route([.exact("/library.css")], [
                    .get(.open) { _, _ in LibraryPageRoute.asset("text/css; charset=utf-8", WebAssets.libraryCSS) },
                ]),
                Route([.exact("/library.js")], [
                    .get(.open) { _, _ in LibraryPageRoute.asset("text/javascript; charset=utf-8", WebAssets.libraryJS) },
                ]),
            ]
        }
        return RouteTable(routes, access: AccessChecker(auth: auth, feed: feed))
    }
}
