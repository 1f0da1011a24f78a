// Import benchmark: lands N small distinct media files in a fresh inbox, runs one import and
// prints files/s. Usage: piper-bench-import [COUNT] [FIXTURE]
import Foundation
import MediaImport
import PiperCore

let arguments = CommandLine.arguments.dropFirst()
let count = arguments.first.flatMap(Int.init) ?? 1_000
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let fixturePath = arguments.dropFirst().first ?? packageRoot.appendingPathComponent("../shared/fixtures/media/sample.mp3").standardizedFileURL.path

let result = try BenchImport.run(count: count, fixture: URL(fileURLWithPath: fixturePath))
print(result)
