/// Decides whether an archive entry's name is safe to write below the extraction folder (pure).
package enum ArchivePath {
    /// The entry's path as safe components, or the reason it is refused: absolute paths, drive
    /// letters, `..` components and NUL bytes are refused; `.` and empty components are dropped.
    /// Backslashes count as separators (zips made on Windows use them).
    package static func safeComponents(_ name: String) -> Result<[String], RefusedReason> {
        if name.contains("\0") { return .failure(.badName) }
        if name.hasPrefix("/") || name.hasPrefix("\\") { return .failure(.absolutePath) }
        let scalars = Array(name.unicodeScalars)
        if scalars.count >= 2, scalars[1] == ":", scalars[0].properties.isAlphabetic { return .failure(.absolutePath) }
        let parts = name.split(omittingEmptySubsequences: true) { $0 == "/" || $0 == "\\" }.map(String.init)
        if parts.contains("..") { return .failure(.parentComponent) }
        let kept = parts.filter { $0 != "." }
        return kept.isEmpty ? .failure(.badName) : .success(kept)
    }

    /// Operating-system clutter that archivers add (macOS resource forks in `__MACOSX/` and
    /// `._name`, Finder and Explorer metadata): skipped silently, neither written nor reported.
    package static func isClutter(_ components: [String]) -> Bool {
        guard let last = components.last else { return false }
        return components.contains("__MACOSX") || last.hasPrefix("._")
            || [".DS_Store", "Thumbs.db", "desktop.ini"].contains(last)
    }

    package enum RefusedReason: Error, Sendable, Equatable, CustomStringConvertible {
        case absolutePath, parentComponent, badName

        package var description: String {
            switch self {
            case .absolutePath: return "absolute path in archive refused"
            case .parentComponent: return "'..' in archive path refused (would write outside the folder)"
            case .badName: return "empty or invalid name in archive refused"
            }
        }
    }
}
