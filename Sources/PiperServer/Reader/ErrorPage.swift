/// A small HTML page for an error a browser runs into (the same look and CSP as the expired
/// page); JSON clients get the documented `{"error": ...}`.
enum ErrorPage {
    static func negotiated(_ error: HTTPError, accept: String?) -> HTTPResponse {
        guard AcceptNegotiation.prefersHTML(accept) else { return ErrorMiddleware.finished(.failure(error)) }
        return ErrorMiddleware.finished(.success(HTTPResponse(status: error.status, headers: ExpiredPage.headers(),
                                                             body: render(error))))
    }

    static func render(_ error: HTTPError) -> [UInt8] {
        let message = HTMLEscape.escape(error.message)
        var html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        html += "<meta name=\"robots\" content=\"noindex\">\n"
        html += "<title>Error \(error.status)</title>\n<style>\(ReaderStyle.css)</style>\n"
        html += "</head><body><main><article>\n<header class=\"saved\">\n<h1>Error \(error.status)</h1>\n</header>\n"
        html += "<p>\(message).</p>\n"
        html += "</article>\n<footer class=\"saved\"><p>Piper</p></footer>\n</main></body></html>\n"
        return Array(html.utf8)
    }
}
