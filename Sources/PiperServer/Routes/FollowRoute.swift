import Foundation
import MediaImport
import PiperCore

/// Following a podcast from a phone or a script: `POST /follows` (form or JSON `url`, optional
/// `into`; the token API's `{"url": FEED, "follow": true}` to `/share` comes here too) follows the
/// feed on the server's own agent, through the server's fetch guard; `GET /follows` lists the
/// followed shows, each with its last check's result and the next one.
struct FollowRoute: Sendable {
    let state: StateFolder
    let fetchGuard: FetchGuard
    /// The store every server shares (`--postgres`); nil: this server's download journal.
    let store: (any FollowStore & Sendable)?

    private var refresher: FollowRefresher {
        var refresher = FollowRefresher(state: state)
        refresher.fetch = FeedFetch(connectionGuard: fetchGuard.connectionGuard)
        refresher.store = store
        return refresher
    }

    /// The followed shows, from the server's follow store.
    func shows() throws -> [FollowedShow] {
        try FollowedShow.all(in: followStore())
    }

    private func followStore() throws -> any FollowStore {
        if let store { return store }
        return try Journal(state: state)
    }

    /// Whether a `/share` request asks to follow its link (`"follow": true`, or a form's `follow=1`).
    static func asksToFollow(_ request: HTTPRequest) -> Bool {
        let type = request.header("Content-Type")?.lowercased() ?? ""
        if type.hasPrefix("application/json") {
            return ((try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any])?["follow"] as? Bool == true
        }
        return type.hasPrefix("application/x-www-form-urlencoded") && ["1", "true", "on"].contains(FormFields.parse(String(decoding: request.body, as: UTF8.self))["follow"] ?? "")
    }

    /// Follows the feed a request names; the answer is JSON for a script, a page for a browser.
    func follow(_ request: HTTPRequest, _ context: RouteContext) throws -> HTTPResponse {
        let fields = try ShareRoute.fields(of: request)
        let device = context.device
        guard let text = fields["url"], let url = URL(string: text.trimmingCharacters(in: .whitespaces)), WebURL.isWeb(url) else {
            return answer(HTTPError(400, "Give the show's feed (or a page that links it) as url"), request, device: device)
        }
        do {
            try fetchGuard.preflight(url)
            let check = try refresher.start(url: url, into: fields["into"].flatMap { $0.isEmpty ? nil : $0 }, keep: nil,
                                            newest: ShareFlow.Options().feedLimit)
            let follow = check.follow
            let sentence = "Following \(follow.title): \(check.queued) episode\(check.queued == 1 ? "" : "s") downloading now into \(follow.folder)."
            if WebPage.wantsJSON(request) {
                return json(["status": "following", "message": sentence, "follow": Self.object(follow, episodes: check.queued)], device: device)
            }
            return WebPage.render("Following", "<h1 id=\"outcome\">Following \(WebPage.e(follow.title))</h1><p id=\"message\">\(WebPage.e(sentence))</p>"
                                  + "<p class=\"muted\">New episodes arrive by themselves. <a href=\"/follows\">Followed shows</a></p>", device: device)
        } catch let error as FollowRefresher.StartError {
            let status: Int
            switch error {
            case .alreadyFollowed: status = 409
            case .unreadable: status = 502
            case .noFeed: status = 422
            }
            return answer(HTTPError(status, error.description), request, device: device)
        } catch let error as HTTPError {
            return answer(error, request, device: device)
        }
    }

    /// The followed shows.
    func list(_ request: HTTPRequest, _ context: RouteContext) throws -> HTTPResponse {
        let shows = try shows()
        if WebPage.wantsJSON(request) {
            return json(["follows": shows.map(\.object)], device: context.device)
        }
        return WebPage.render("Followed shows", "<h1>Followed shows</h1>" + FollowedShow.list(shows, id: "follows"), device: context.device)
    }

    static func object(_ follow: Follow, episodes: Int) -> [String: Any] {
        [
            "id": follow.id, "title": follow.title, "url": follow.url, "folder": follow.folder, "episodes": episodes,
            "lastCheck": follow.lastCheck.map(RequestLog.timestamp) ?? NSNull(), "lastResult": follow.lastResult ?? NSNull(),
            "nextCheck": follow.stopped == nil ? RequestLog.timestamp(follow.nextCheck) : NSNull(), "stopped": follow.stopped ?? NSNull(),
        ]
    }

    private func answer(_ error: HTTPError, _ request: HTTPRequest, device: String?) -> HTTPResponse {
        if WebPage.wantsJSON(request) {
            var response = json(["status": "failed", "error": error.message], device: device)
            response.status = error.status
            return response
        }
        return WebPage.failure(error, heading: "Not followed", device: device)
    }

    private func json(_ object: [String: Any], device: String?) -> HTTPResponse {
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        var response = HTTPResponse(status: 200, headers: [("Content-Type", "application/json; charset=utf-8")], body: Array(body))
        response.device = device
        return response
    }
}
