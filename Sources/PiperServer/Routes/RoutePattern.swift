/// A route's path with declared parameters: `/shares/:id/retry` (`:id` is one non-empty
/// segment), `/feed/:rest...` (the last parameter takes the rest of the path, slashes and all).
/// The table matches a request's path against it and hands the handler the values
/// (`RouteContext.parameters`), so no handler slices the path itself.
struct RoutePattern: Sendable, Equatable, ExpressibleByStringLiteral {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        /// The rest of the path (at least one character).
        case rest(String)
    }

    let text: String
    let segments: [Segment]

    init(stringLiteral text: String) { self.init(text) }

    init(_ text: String) {
        precondition(text.hasPrefix("/"), "a route pattern starts with /: \(text)")
        self.text = text
        let parts = text.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        segments = parts.enumerated().map { index, part in
            if part.hasPrefix(":"), part.hasSuffix("...") {
                precondition(index == parts.count - 1, "only the last parameter takes the rest: \(text)")
                return .rest(String(part.dropFirst().dropLast(3)))
            }
            return part.hasPrefix(":") ? .parameter(String(part.dropFirst())) : .literal(String(part))
        }
    }

    /// The parameters' values when `path` matches, else nil.
    func match(_ path: String) -> [String: String]? {
        guard path.hasPrefix("/") else { return nil }
        var values: [String: String] = [:]
        var rest = path.dropFirst()[...]
        for (index, segment) in segments.enumerated() {
            let last = index == segments.count - 1
            if case .rest(let name) = segment {
                guard !rest.isEmpty else { return nil }
                values[name] = String(rest)
                return values
            }
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            let part = rest[..<end]
            switch segment {
            case .literal(let text): guard part == text else { return nil }
            case .parameter(let name):
                guard !part.isEmpty else { return nil }
                values[name] = String(part)
            case .rest: return nil
            }
            if last { return end == rest.endIndex ? values : nil }
            guard end < rest.endIndex else { return nil }
            rest = rest[rest.index(after: end)...]
        }
        return segments.isEmpty && rest.isEmpty ? values : nil
    }
}
