import Foundation

/// The one ratchet mechanism: committed minimums in `Ratchets/*.txt` files beside the tests, one
/// `key value` line each (`#` starts a comment). A missing or unreadable file, a missing key or
/// a value that is not a number is an error, so a lost ratchet fails its test instead of
/// passing it.
public enum Ratchet {
    /// The committed minimum for `key` in `file` (a path relative to the package root, such as
    /// `Tests/HTMLTests/Ratchets/tokenizer.txt`).
    public static func minimum(_ key: String, in file: String) throws -> Int {
        let text = try read(file, "ratchet")
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, parts[0] == Substring(key) else { continue }
            guard let value = Int(parts[1]) else { throw RatchetError("\(file): '\(key)' is not followed by a number") }
            return value
        }
        throw RatchetError("\(file): no '\(key) N' line")
    }

    /// The cases listed in a known-failures file (`file` relative to the package root): one case
    /// per line, `<case> -- <reason>`; `#` starts a comment. A missing file is an error. A test
    /// that reads one must fail on a failure not listed and on a listed case that now passes,
    /// so the list stays exact.
    public static func knownFailures(in file: String) throws -> Set<String> {
        let text = try read(file, "known-failures")
        return Set(text.split(separator: "\n").compactMap { line -> String? in
            if line.hasPrefix("#") || line.allSatisfy(\.isWhitespace) { return nil }
            return line.components(separatedBy: " -- ").first
        })
    }

    private static func read(_ file: String, _ kind: String) throws -> String {
        do {
            return try String(contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8)
        } catch {
            throw RatchetError("\(file): cannot read the \(kind) file (\(error.localizedDescription))")
        }
    }
}

/// A ratchet file that is missing, unreadable or lacks the key asked for.
public struct RatchetError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
