import Foundation

/// Runs a program to completion and returns its exit status and stdout (stderr is discarded).
@discardableResult
public func runProcess(_ executable: String, _ arguments: [String],
                       environment: [String: String]? = nil) throws -> (status: Int32, stdout: String) {
    let result = try runProcessCapturing(executable, arguments, environment: environment)
    return (result.status, result.stdout)
}

/// Runs a program to completion and returns its exit status, stdout and stderr (stderr through a
/// temporary file, so neither pipe can fill up while the other is read).
public func runProcessCapturing(_ executable: String, _ arguments: [String],
                                environment: [String: String]? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe()
    process.standardOutput = out
    let errFile = FileManager.default.temporaryDirectory.appendingPathComponent("piper-stderr-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errFile) }
    process.standardError = try FileHandle(forWritingTo: errFile)
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let err = (try? String(contentsOf: errFile, encoding: .utf8)) ?? ""
    return (process.terminationStatus, String(decoding: data, as: UTF8.self), err)
}

/// Reads a child's output until its first newline (or its end) and returns that first line:
/// how the tests learn the port a server they started is listening on.
public func readFirstLine(_ pipe: Pipe) -> String {
    var buffer = Data()
    while !buffer.contains(UInt8(ascii: "\n")) {
        let chunk = pipe.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        buffer.append(chunk)
    }
    return String(decoding: buffer, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
}
