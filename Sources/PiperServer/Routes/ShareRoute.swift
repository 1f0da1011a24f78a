import Foundation
import PiperCore

/// `POST /share` (form-encoded, multipart with files, or JSON: `url`, `text`, `title`, `file`)
/// runs the share server-side and answers JSON `{"status","url","title","error","job"}` or a
/// small page; `GET /share?url=…` (a bookmarklet) shows a confirmation form and never shares.
/// Both need a credential; a POST also has to come from this site (or the OS share sheet): the
/// route table declares and checks both.
struct ShareRoute: Sendable {
    let runner: ShareRunner
    let limiter: any RateLimiting
    let clock: @Sendable () -> Date
    /// Idempotency keys: a retried share gets the first one's answer, never a second job.
    let keys: ShareKeys

    /// A share blocks while it loads pages: its items run on the share workers (`ShareWork`,
    /// fair between credentials), the connection waits suspended, and a retry waiting for its
    /// first try holds no thread.
    func share(_ request: HTTPRequest, _ context: RouteContext, reply: @escaping @Sendable (Result<HTTPResponse, any Error>) -> Void) {
        BlockingPool.shareWork.async { begin(request, context, reply: reply) }
    }

    /// The same, waiting for the answer on the caller's thread.
    func share(_ request: HTTPRequest, _ context: RouteContext) throws -> HTTPResponse {
        let answer = Awaited<Result<HTTPResponse, any Error>>()
        begin(request, context) { answer.set($0) }
        return try answer.wait().get()
    }

    func confirmation(_ request: HTTPRequest, _ context: RouteContext) throws -> HTTPResponse {
        let credential = try context.requiredCredential()
        let url = request.query["url"] ?? "", title = request.query["title"] ?? "", text = request.query["text"] ?? ""
        let e = WebPage.e
        let body = """
            <h1>Share this?</h1>
            <form method="post" action="/share">
            <label for="url">Link</label><input type="url" id="url" name="url" value="\(e(url))" required>
            <input type="hidden" name="title" value="\(e(title))"><input type="hidden" name="text" value="\(e(text))">
            <button type="submit">Share</button>
            </form>
            <p class="muted">\(e(title))</p>
            """
        return WebPage.render("Share", body, device: credential.name)
    }

    /// Reads the share and starts it; `reply` gets its answer once (the upload's leftovers are
    /// removed before).
    private func begin(_ request: HTTPRequest, _ context: RouteContext, reply: @escaping @Sendable (Result<HTTPResponse, any Error>) -> Void) {
        let upload = request.upload as? ShareUpload
        let credential: Credential
        do {
            credential = try context.requiredCredential()
        } catch {
            upload?.cleanUp()
            return reply(.failure(error))
        }
        let respond: @Sendable (HTTPResponse) -> Void = { response in
            upload?.cleanUp()
            reply(.success(response))
        }
        do {
            try takeBudget(credential.name)
        } catch {
            return respond(answer(error, request))
        }
        let fields: [String: String]
        do {
            fields = try upload?.fields ?? Self.fields(of: request)
        } catch {
            return respond(answer(error, request, device: credential.name))
        }
        let items = ["url", "text", "title"].compactMap { fields[$0] }.filter { !$0.isEmpty }
        let files = upload?.files ?? []
        let share = ShareItems(items: items, files: files)
        if share.count > ShareItems.limit {
            return respond(answer(HTTPError(413, "A share holds at most \(ShareItems.limit) links and files; this one has \(share.count)"),
                                  request, device: credential.name))
        }
        guard let key = request.header("Idempotency-Key") ?? fields["key"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            return run(share, device: credential.name, skipping: ShareKeyProgress(), noting: nil) { records, _ in
                respond(result(records, request))
            }
        }
        guard ShareKeys.isValid(key) else {
            return respond(answer(HTTPError(400, "An idempotency key is 8 to 128 letters, digits, - or _"), request, device: credential.name))
        }
        let keyed = KeyedShare(key: key, device: credential.name, fingerprint: Self.fingerprint(items, files: files.map { "\($0.name):\($0.bytes)" }),
                               items: share, giveUp: Date().addingTimeInterval(Self.retryWait))
        claim(keyed, request, respond: respond)
    }

    /// Takes one share from the credential's budget, or throws the 429 that says when to try again.
    func takeBudget(_ name: String) throws {
        if case .denied(let retryAfter) = limiter.take(client: name, now: clock().timeIntervalSince1970) {
            let seconds = max(1, Int(retryAfter.rounded(.up)))
            throw HTTPError(429, "Too many shares from \(name); try again in \(seconds) s", headers: [("Retry-After", String(seconds))])
        }
    }

    /// The answer to a share: JSON for a script; for a browser's navigation (a form, the share
    /// target, or the service worker sending one on the page's behalf with `Piper-Navigation`) a
    /// 303 to its result page, so a reload or Back never shares again; else (and for a 5xx) the page.
    func result(_ records: [ShareRecord], _ request: HTTPRequest) -> HTTPResponse {
        if WebPage.wantsJSON(request) { return Self.json(records) }
        let navigation = request.header("Sec-Fetch-Mode")?.lowercased() == "navigate" || request.header("Piper-Navigation") == "1"
        // A server error is answered as itself, not by a redirect to a page saying it, so the
        // worker sees that the share was not taken and keeps it (the key was released for it).
        guard navigation, ShareItems.status(of: records) < 500 else { return ShareResultPage.render(records) }
        var response = HTTPResponse(status: 303, headers: [("Location", "/shares/\(records.map(\.id).joined(separator: ","))"),
                                                          ("Cache-Control", "no-store")])
        response.device = records.first?.device
        return response
    }

    /// `GET /shares/<id>[,<id>…]`: a share's result page, where a browser's share lands.
    func resultPage(_ request: HTTPRequest, _ context: RouteContext) throws -> HTTPResponse {
        let credential = try context.requiredCredential()
        let ids = try context.parameter("ids").split(separator: ",").map(String.init)
        let records = runner.history.records(ids: ids).filter(credential.mayRead)   // another device's: as unknown
        guard !records.isEmpty else { throw HTTPError(404, "No recent share has the id \(ids.joined(separator: ","))") }
        var page = ShareResultPage.render(records) { $0.status == .queued ? runner.progress(of: $0) : nil }
        page.status = 200
        return page
    }

    /// What a share carried, to tell a retry from another share under the same key.
    static func fingerprint(_ items: [String], files: [String]) -> String {
        SHA256.hex(of: Array((items + ["--files--"] + files).joined(separator: "\u{0}").utf8))
    }

    func answer(_ error: any Error, _ request: HTTPRequest, device: String? = nil) -> HTTPResponse {
        let http = error as? HTTPError ?? .internalError
        if WebPage.wantsJSON(request) {
            var response = HTTPResponse.error(http)
            response.device = device
            return response
        }
        return WebPage.failure(http, device: device)
    }

    /// The fields of a JSON or form-encoded body.
    static func fields(of request: HTTPRequest) throws -> [String: String] {
        let type = request.header("Content-Type")?.lowercased() ?? ""
        if type.hasPrefix("application/json") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any] else {
                throw HTTPError(400, "Request body must be a JSON object with url, text or title")
            }
            return object.compactMapValues { $0 as? String }
        }
        if type.hasPrefix("application/x-www-form-urlencoded") || type.isEmpty {
            return FormFields.parse(String(decoding: request.body, as: UTF8.self))
        }
        if type.hasPrefix("multipart/") { throw HTTPError(400, "The multipart body has no boundary") }
        throw HTTPError(415, "Send the share as form fields, multipart/form-data or JSON, not \(type)")
    }

    /// One share's outcome as the JSON answer's fields (`id`: the share's id in `/api/shares`
    /// and its result page `/shares/ID`).
    static func object(_ record: ShareRecord) -> [String: Any] {
        let state = ShareState(record, progress: nil, now: record.created)
        return [
            "id": record.id, "status": record.status.rawValue, "url": record.url ?? NSNull(), "title": record.title ?? NSNull(),
            "error": record.error ?? NSNull(), "job": record.job ?? NSNull(),
            // A media share's sentence names its file, never a path on the server.
            "message": record.status == .queued || record.status == .duplicate ? ShareResultPage.queuedLine(record, fileName: nil) : record.message,
            "source": record.source ?? NSNull(), "expires": record.expires.map { RequestLog.timestamp($0) } ?? NSNull(),
            "libraryPath": record.libraryPath ?? NSNull(),
            // Media a saved article's page also names (shared again as media, it is downloaded).
            "alsoFound": record.alsoFound ?? NSNull(),
            // A failure's sentence for people, its technical detail, the page that fixes it and
            // the retry, as `/api/shares` lists them.
            "reason": state.reason ?? NSNull(), "detail": record.detail ?? NSNull(),
            "action": state.actionPath ?? NSNull(), "retry": state.retryPath ?? NSNull(),
        ]
    }

    /// The JSON answer: the first item's outcome at the top (what one-link clients read) and
    /// every item's in `shares`. Its status: the item's own for one; for several, 200 when one
    /// was saved, else 202 when one was queued, else the first's.
    static func json(_ records: [ShareRecord]) -> HTTPResponse {
        var object = records.first.map(Self.object) ?? [:]
        object["shares"] = records.map(Self.object)
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        var response = HTTPResponse(status: ShareItems.status(of: records), headers: [("Content-Type", "application/json; charset=utf-8")],
                                    body: Array(body))
        response.device = records.first?.device
        return response
    }
}

/// `application/x-www-form-urlencoded` bodies and query strings.
enum FormFields {
    static func parse(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { decode(String($0)) }
            if let name = parts.first { fields[name] = parts.count > 1 ? parts[1] : "" }
        }
        return fields
    }

    static func decode(_ text: String) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}

extension BlockingPool {
    /// Where a share is read and its key claimed (short store calls); its items run on
    /// `ShareWork.shares`.
    static let shareWork = BlockingPool(threads: 4, name: "piper-share-front")
}
