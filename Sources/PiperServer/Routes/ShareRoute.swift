import Foundation
import PiperCore

/// `POST /share` (form-encoded, multipart with files, or JSON: `url`, `text`, `title`, `file`)
/// runs the share server-side and answers JSON `{"status","url","title","error","job"}` or a
/// small page; `GET /share?url=…` (a bookmarklet) shows a confirmation form and never shares.
/// Both need a credential; a POST also has to come from this site (or the OS share sheet): the
/// route table declares and checks both.
struct ShareRoute: Sendable {
    let runner: ShareRunner
    let limiter: RateLimiter
    let clock: @Sendable () -> Date

    /// A share blocks while it loads the page: it runs on the share pool, the connection waits
    /// suspended.
    func share(_ request: HTTPRequest, _ context: RouteContext, reply: @escaping @Sendable (Result<HTTPResponse, any Error>) -> Void) {
        BlockingPool.shareWork.async { reply(Result { try share(request, context) }) }
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

    func share(_ request: HTTPRequest, _ context: RouteContext) throws -> HTTPResponse {
        let upload = request.upload as? ShareUpload
        defer { upload?.cleanUp() }
        let credential = try context.requiredCredential()
        do {
            if case .denied(let retryAfter) = limiter.take(client: credential.name, now: clock().timeIntervalSince1970) {
                let seconds = max(1, Int(retryAfter.rounded(.up)))
                throw HTTPError(429, "Too many shares from \(credential.name); try again in \(seconds) s",
                                headers: [("Retry-After", String(seconds))])
            }
        } catch {
            return answer(error, request)
        }
        let fields: [String: String]
        do {
            fields = try upload?.fields ?? Self.fields(of: request)
        } catch {
            return answer(error, request, device: credential.name)
        }
        let items = ["url", "text", "title"].compactMap { fields[$0] }.filter { !$0.isEmpty }
        let file = upload?.files.first
        let record = runner.share(items: items, file: file?.url, device: credential.name, now: clock())
        return WebPage.wantsJSON(request) ? Self.json(record) : ShareResultPage.render(record, fileName: file?.name)
    }

    private func answer(_ error: any Error, _ request: HTTPRequest, device: String? = nil) -> HTTPResponse {
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

    static func json(_ record: ShareRecord) -> HTTPResponse {
        let object: [String: Any] = [
            "status": record.status.rawValue, "url": record.url ?? NSNull(), "title": record.title ?? NSNull(),
            "error": record.error ?? NSNull(), "job": record.job ?? NSNull(), "message": record.message,
            "expires": record.expires.map { RequestLog.timestamp($0) } ?? NSNull(),
        ]
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        var response = HTTPResponse(status: record.httpStatus, headers: [("Content-Type", "application/json; charset=utf-8")],
                                    body: Array(body))
        response.device = record.device
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
    /// Where server-side shares run (each blocks on page loads for up to its timeouts).
    static let shareWork = BlockingPool(threads: 8, name: "piper-share")
}
