import Foundation
import PiperTestSupport

/// The package root, from this file's path (Tests/PiperNetTests/ → ../../).
func packageRoot(_ file: String = #filePath) -> URL {
    URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

/// A fresh temporary folder for one test.
func makeTempDir() throws -> URL {
    try makeTemporaryDirectory("net")
}
