import CCurl
import Foundation
import PiperCore
import PiperSystem

/// POSTs `{"title","content"}` as JSON to `<backend>/save` with libcurl and reads `{"url"}` back.
public struct HTTPSaveClient: SaveClient {
    public let backendBaseURL: URL
    public var connectTimeout: TimeInterval
    public var timeout: TimeInterval

    public init(backendBaseURL: URL, connectTimeout: TimeInterval = 5, timeout: TimeInterval = 20) {
        self.backendBaseURL = backendBaseURL
        self.connectTimeout = connectTimeout
        self.timeout = timeout
    }

    /// `Config.backendBaseURL` + "/save" (the base has no trailing slash).
    public var saveURL: URL { backendBaseURL.appendingPathComponent("save") }

    struct Answer: Decodable { let url: String }
    struct Problem: Decodable { let error: String }

    public func save(_ article: ExtractedArticle) throws -> URL {
        let url = saveURL
        let curl: CurlEasy
        let body = CurlBody(limit: 1_000_000)
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let json = String(decoding: try encoder.encode(article), as: UTF8.self)
            curl = try CurlEasy(url: url)
            curl.receiver = body
            try curl.set(CURLOPT_POST, 1)
            // The size first: setting it after COPYPOSTFIELDS would discard the copied body.
            try curl.set(CURLOPT_POSTFIELDSIZE, json.utf8.count)
            try curl.set(CURLOPT_COPYPOSTFIELDS, json)
            // "Expect:" drops libcurl's 100-continue round trip.
            try curl.setHeaders(["Content-Type: application/json; charset=utf-8", "Accept: application/json", "Expect:"])
            try curl.set(CURLOPT_USERAGENT, "piper/0.1")
            try curl.set(CURLOPT_CONNECTTIMEOUT_MS, Int(connectTimeout * 1000))
            try curl.set(CURLOPT_TIMEOUT_MS, Int(timeout * 1000))
        } catch {
            throw SaveError.unreachable(url, "\(error)")
        }

        if let failure = curl.perform() {
            if failure.isTimeout { throw SaveError.timedOut(seconds: Int(timeout.rounded(.up))) }
            if body.overflowed { throw SaveError.malformedResponse("the answer is larger than 1 MB") }
            throw SaveError.unreachable(url, failure.message)
        }
        return try Self.interpret(status: curl.responseCode, body: body.data)
    }

    /// Maps the backend's answer to a URL or a `SaveError`.
    static func interpret(status: Int, body: Data) throws -> URL {
        let problem = (try? JSONDecoder().decode(Problem.self, from: body))?.error
        switch status {
        case 200..<300:
            let answer: Answer
            do {
                answer = try JSONDecoder().decode(Answer.self, from: body)
            } catch {
                let snippet = String(decoding: body.prefix(80), as: UTF8.self)
                throw SaveError.malformedResponse("expected JSON with a \"url\", got '\(snippet)'")
            }
            guard let url = URL(string: answer.url), let scheme = url.scheme?.lowercased(),
                  scheme == "http" || scheme == "https", url.host != nil else {
                throw SaveError.malformedResponse("the \"url\" '\(answer.url)' is not an http(s) URL")
            }
            return url
        case 400..<500:
            throw SaveError.rejected(status: status, message: problem ?? "the server refused the article (HTTP \(status))")
        default:
            throw SaveError.server(status: status, message: problem)
        }
    }
}
