/// A small HTML page for an error a browser runs into (the same look and CSP as the expired
/// page); JSON clients get the documented `{"error": ...}`.
enum ErrorPage {
    static func negotiated(_ error: HTTPError, accept: String?) -> HTTPResponse {
        guard AcceptNegotiation.prefersHTML(accept) else { return ErrorMiddleware.finished(.failure(error)) }
        return ErrorMiddleware.finished(.success(HTTPResponse(status: error.status, headers: ExpiredPage.headers(),
                                                             body: render(error))))
    }

    static func render(_ error: HTTPError) -> [UInt8] {
        ExpiredPage.notice(title: "Error \(error.status)", body: "<p>\(HTMLEscape.escape(error.message)).</p>\n", footer: "Piper")
    }
}
