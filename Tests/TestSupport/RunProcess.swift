import Foundation

/// Runs a program to completion and returns its exit status and stdout (stderr is discarded).
@discardableResult
public func runProcess(_ executable: String, _ arguments: [String],
                       environment: [String: String]? = nil) throws -> (status: Int32, stdout: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
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
