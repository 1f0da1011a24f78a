import Foundation

/// Finds a program the way a shell does: a name with a slash is taken as it is; any other
/// name is looked for in each folder of PATH in turn.
package enum ExecutableSearch {
    /// The PATH used when the environment has none.
    package static let defaultPath = "/usr/local/bin:/usr/bin:/bin"

    /// The program's path, or nil when no folder of `environment["PATH"]` holds an
    /// executable file of that name.
    package static func find(_ program: String, environment: [String: String]) -> String? {
        if program.contains("/") { return program }
        guard !program.isEmpty else { return nil }
        let path = environment["PATH"] ?? defaultPath
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(program)"
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isFolder), !isFolder.boolValue,
               FileManager.default.isExecutableFile(atPath: candidate) {
                return candidate
            }
        }
        return nil
    }
}
