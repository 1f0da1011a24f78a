import Foundation

/// The one temporary-state helper: a fresh folder under the system's temporary directory per
/// test (`piper-<label>-<uuid>`), removed when the value goes away. `home` is the folder a test
/// hands to Piper as `PIPER_HOME`; the rest of the folder is scratch space beside it.
public final class TemporaryFolder: @unchecked Sendable {   // immutable after init
    /// The folder itself (scratch space).
    public let url: URL
    /// `url/home`, for `PIPER_HOME` (created on demand by Piper, or by `init(createHome:)`).
    public let home: URL

    public init(_ label: String = "test", createHome: Bool = true) throws {
        url = try makeTemporaryDirectory(label)
        home = url.appendingPathComponent("home", isDirectory: true)
        if createHome { try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true) }
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// A fresh, empty folder `piper-<label>-<uuid>` under the temporary directory, for a test that
/// removes it itself (or leaves it to the system's temporary-file cleanup).
public func makeTemporaryDirectory(_ label: String = "test") throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("piper-\(label)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}
