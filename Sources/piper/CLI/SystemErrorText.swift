import Foundation

/// Sentences for Foundation's file errors, which would otherwise reach the user as
/// `Error Domain=NSCocoaErrorDomain Code=513 ...`.
enum SystemErrorText {
    static func sentence(for error: any Error) -> String {
        guard let cocoa = error as? CocoaError else { return "\(error)" }
        let path = cocoa.filePath ?? (cocoa.userInfo[NSURLErrorKey] as? URL)?.path
        let subject = path.map { " \($0)" } ?? ""
        switch cocoa.code {
        case .fileWriteNoPermission:
            return "Cannot write\(subject): permission denied. Make it writable, or set PIPER_HOME to a folder you own."
        case .fileReadNoPermission:
            return "Cannot read\(subject): permission denied."
        case .fileNoSuchFile, .fileReadNoSuchFile:
            return "No such file or folder\(subject)."
        case .fileWriteOutOfSpace:
            return "No space left on the device to write\(subject)."
        case .fileWriteVolumeReadOnly:
            return "Cannot write\(subject): the file system is read-only."
        case .fileWriteFileExists:
            return "Cannot create\(subject): something else already has that name."
        default:
            return "Cannot access\(subject) (\(cocoa.code.rawValue))."
        }
    }
}
