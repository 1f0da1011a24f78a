import Foundation

/// The package root, from this file's path (Tests/TestSupport/PackagePaths.swift).
public let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// `../shared` beside the package: corpora, fixtures and the guide.
public let sharedFolder: URL = packageRoot.appendingPathComponent("../shared").standardizedFileURL
