import Foundation
import PiperCore

/// A network's API answer read with `Decodable` types: a shape that changed fails with what is
/// missing, named as the network names it (`no "account" at descendants[2]`), never a field
/// silently read as nothing.
enum PostAnswer {
    static func decode<T: Decodable>(_ type: T.Type, _ data: Data, on network: PostNetwork, snakeCase: Bool = false) throws -> T {
        let decoder = JSONDecoder()
        if snakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
        do {
            return try decoder.decode(T.self, from: data)
        } catch let error as DecodingError {
            throw PostFailure(.unreadable(describe(error, snakeCase: snakeCase)), on: network)
        } catch {
            throw PostFailure(.unreadable("not JSON"), on: network)
        }
    }

    static func describe(_ error: DecodingError, snakeCase: Bool) -> String {
        func name(_ key: any CodingKey) -> String { snakeCase ? snake(key.stringValue) : key.stringValue }
        func path(_ keys: [any CodingKey]) -> String {
            let text = keys.map { key in key.intValue.map { "[\($0)]" } ?? "." + name(key) }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : text
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "no \"\(name(key))\"" + (context.codingPath.isEmpty ? "" : " at \(path(context.codingPath))")
        case .valueNotFound(_, let context): return "\(path(context.codingPath)) is null"
        case .typeMismatch(let type, let context): return "\(path(context.codingPath)) is not a \(type)"
        case .dataCorrupted(let context): return context.codingPath.isEmpty ? "not JSON" : "\(path(context.codingPath)) is malformed"
        @unknown default: return "\(error)"
        }
    }

    /// `displayName` as the JSON wrote it: `display_name`.
    static func snake(_ name: String) -> String {
        var out = ""
        for character in name {
            if character.isUppercase { out += "_" + character.lowercased() } else { out.append(character) }
        }
        return out
    }

    /// An API's error answer: `{"error": "NotFound", "message": …}` (Bluesky's XRPC errors,
    /// Mastodon's `{"error": "Record not found"}`) or Reddit's `{"error": 403, "reason": "private"}`.
    struct ErrorAnswer: Decodable {
        var error: String?
        var message: String?
        var reason: String?

        enum CodingKeys: String, CodingKey { case error, message, reason }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            error = (try? container.decodeIfPresent(String.self, forKey: .error))
                ?? (try? container.decodeIfPresent(Int.self, forKey: .error)).flatMap { $0.map(String.init) }
            message = try? container.decodeIfPresent(String.self, forKey: .message)
            reason = try? container.decodeIfPresent(String.self, forKey: .reason)
        }

        /// The error body of `answer`, when it is JSON of that shape.
        static func of(_ answer: LoadedPage) -> ErrorAnswer? {
            try? JSONDecoder().decode(ErrorAnswer.self, from: answer.body)
        }
    }

    /// The reason an error answer's status gives when its body says nothing more.
    static func reason(forStatus status: Int) -> PostFailure.Reason {
        switch status {
        case 401: return .needsLogin
        case 404: return .notFound
        case 410: return .deleted
        case 429: return .rateLimited
        case 500...: return .siteError
        default: return .noPost
        }
    }
}
