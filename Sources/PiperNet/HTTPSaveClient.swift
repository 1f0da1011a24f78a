import Foundation
import PiperCore
import PiperSystem

/// POSTs `{"title","content"}` (plus what extraction found) as JSON to `<backend>/save` with
/// libcurl and reads `{"url"}` (and `expires`, when given) back. A 429 whose `Retry-After` is at
/// most `longestRetryWait` seconds is retried once after that wait.
public struct HTTPSaveClient: SaveClient {
    package let backendBaseURL: URL
    package var connectTimeout: TimeInterval
    package var timeout: TimeInterval
    /// The longest `Retry-After` worth waiting for (once) before reporting the 429.
    package var longestRetryWait: TimeInterval = 10

    /// A client for the backend at `backendBaseURL` (`Config.backendBaseURL`, no trailing slash);
    /// the timeouts are in seconds.
    public init(backendBaseURL: URL, connectTimeout: TimeInterval = 5, timeout: TimeInterval = 20) {
        self.backendBaseURL = backendBaseURL
        self.connectTimeout = connectTimeout
        self.timeout = timeout
    }

    /// `Config.backendBaseURL` + "/save" (the base has no trailing slash).
    package var saveURL: URL { backendBaseURL.appendingPathComponent("save") }

    struct Answer: Decodable {
        let url: String
        let expires: String?
    }
    struct Problem: Decodable { let error: String }

    /// The reader URL alone, for callers that do not show the expiry.
    public func save(_ article: ExtractedArticle) throws -> URL { try saveCopy(article).url }

    /// Saves the article and returns the backend's receipt (reader URL, and expiry when the
    /// backend gives one); refusals, timeouts and an unreachable backend are `SaveError`s.
    public func saveCopy(_ article: ExtractedArticle) throws -> SaveReceipt {
        do {
            return try post(article)
        } catch let limited as RateLimited {
            guard limited.retryAfter <= longestRetryWait else { throw limited.error }
            Thread.sleep(forTimeInterval: max(0, limited.retryAfter))
            do {
                return try post(article)
            } catch let again as RateLimited {
                throw again.error
            }
        }
    }

    /// A 429 and how long the server asked us to wait (infinity when it did not say).
    struct RateLimited: Error {
        let error: SaveError
        let retryAfter: TimeInterval
    }

    private func post(_ article: ExtractedArticle) throws -> SaveReceipt {
        let url = saveURL
        let curl: CurlEasy
        let body = CurlBody(limit: 1_000_000)
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            var request = CurlRequest(url: url)
            request.method = .post(try encoder.encode(article.fittingSaveRules()))
            // "Expect:" drops libcurl's 100-continue round trip.
            request.headers = ["Content-Type: application/json; charset=utf-8", "Accept: application/json", "Expect:"]
            request.userAgent = "piper/0.1"
            request.connectTimeout = connectTimeout
            request.totalTimeout = timeout
            curl = try CurlEasy(request)
            curl.receiver = body
        } catch {
            throw SaveError.unreachable(url, "\(error)")
        }

        if let failure = curl.perform() {
            if failure.isTimeout { throw SaveError.timedOut(seconds: Int(timeout.rounded(.up))) }
            if body.overflowed { throw SaveError.malformedResponse("the answer is larger than 1 MB") }
            throw SaveError.unreachable(url, failure.message)
        }
        let status = curl.responseCode
        do {
            return try Self.interpretReceipt(status: status, body: body.data)
        } catch let error as SaveError where status == 429 {
            throw RateLimited(error: error, retryAfter: curl.retryAfter.map(TimeInterval.init) ?? .infinity)
        }
    }

    /// Maps the backend's answer to a URL or a `SaveError`.
    static func interpret(status: Int, body: Data) throws -> URL {
        try interpretReceipt(status: status, body: body).url
    }

    /// Maps the backend's answer to a receipt (URL and expiry) or a `SaveError`.
    static func interpretReceipt(status: Int, body: Data) throws -> SaveReceipt {
        // The error body is read only for an error status (a decoder pass less on every save).
        func problem() -> String? { (try? JSONDecoder().decode(Problem.self, from: body))?.error }
        switch status {
        case 200..<300:
            let answer: Answer
            do {
                answer = try JSONDecoder().decode(Answer.self, from: body)
            } catch {
                let snippet = String(decoding: body.prefix(80), as: UTF8.self)
                throw SaveError.malformedResponse("expected JSON with a \"url\", got '\(snippet)'")
            }
            guard let url = URL(string: answer.url), WebURL.isWeb(url) else {
                throw SaveError.malformedResponse("the \"url\" '\(answer.url)' is not an http(s) URL")
            }
            // An unreadable expiry is not worth failing a save over: it is only shown.
            return SaveReceipt(url: url, expires: answer.expires.flatMap(Self.parseExpiry))
        case 400..<500:
            throw SaveError.rejected(status: status, message: problem() ?? "the server refused the article (HTTP \(status))")
        default:
            throw SaveError.server(status: status, message: problem())
        }
    }
}
