import Foundation

/// Small helpers for `Content-Type` header values.
public enum ContentType {
    /// The lowercased media type without parameters: "text/html".
    public static func mediaType(of header: String?) -> String? {
        guard let first = header?.split(separator: ";", maxSplits: 1).first else { return nil }
        let type = first.trimmingWhitespace().lowercased()
        return type.isEmpty ? nil : type
    }

    /// The `charset` parameter, unquoted: `text/html; charset="UTF-8"` → "UTF-8".
    public static func charset(of header: String?) -> String? {
        guard let header else { return nil }
        for param in header.split(separator: ";").dropFirst() {
            let pair = param.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingWhitespace().lowercased() == "charset" else { continue }
            let value = pair[1].trimmingWhitespace().trimmingScalars { $0 == "\"" || $0 == "'" }
            return value.isEmpty ? nil : value
        }
        return nil
    }
}
