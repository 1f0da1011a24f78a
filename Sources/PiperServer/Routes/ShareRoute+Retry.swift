import Foundation
import PiperCore

extension ShareRoute {
    /// `POST /shares/<id>/retry`: tries a failed share, or a failed, cancelled or postponed
    /// download, again now (`ShareRunner.retry`), with the share's own access: a credential
    /// that may read the share (its device, or the owner's), from this site or with a bearer
    /// token. JSON answers with the share as `/api/shares` lists it; a browser goes back to the
    /// home page (303), where the share shows its new state.
    /// A retried link runs its share again: on the share front's threads, the connection
    /// waiting suspended, as a share does.
    func retry(_ request: HTTPRequest, _ context: RouteContext, reply: @escaping @Sendable (Result<HTTPResponse, any Error>) -> Void) {
        BlockingPool.shareWork.async { reply(.success(retry(request, context))) }
    }

    /// The answer to a retry, a refusal included (a page for a browser, JSON for a script).
    func retry(_ request: HTTPRequest, _ context: RouteContext) -> HTTPResponse {
        do {
            return try retried(request, context)
        } catch {
            let http = error as? HTTPError ?? .internalError
            if WebPage.wantsJSON(request) {
                var response = HTTPResponse.error(http)
                response.device = context.device
                return response
            }
            return WebPage.failure(http, heading: "Not tried again", device: context.device)
        }
    }

    private func retried(_ request: HTTPRequest, _ context: RouteContext) throws -> HTTPResponse {
        let credential = try context.requiredCredential()
        let id = try context.parameter("id")
        // Another device's share is answered as unknown, as its result page is.
        guard let record = runner.history.records(ids: [id]).first(where: credential.mayRead) else {
            throw HTTPError(404, "No recent share has the id \(id)")
        }
        // A retry runs a share again: it counts against the credential's share budget.
        try takeBudget(credential.name)
        let again = try runner.retry(record, now: clock())
        if WebPage.wantsJSON(request) {
            let state = ShareState(again, progress: again.status == .queued ? runner.progress(of: again) : nil, now: clock())
            let object = state.json.merging(["id": again.id, "url": again.url ?? NSNull(), "title": again.title ?? NSNull(),
                                             "job": again.job ?? NSNull(), "source": again.source ?? NSNull()]) { $1 }
            let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
            var response = HTTPResponse(status: 200, headers: [("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "no-store")],
                                        body: Array(body))
            response.device = credential.name
            return response
        }
        var response = HTTPResponse(status: 303, headers: [("Location", "/"), ("Cache-Control", "no-store")])
        response.device = credential.name
        return response
    }
}
