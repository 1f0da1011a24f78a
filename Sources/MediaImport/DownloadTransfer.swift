import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The state of one HTTP attempt: the response headers, the decision taken on them, and the
/// open partial file the body goes to. libcurl's callbacks drive it.
///
/// Not Sendable: created, driven and read by the one thread that runs the attempt.
final class DownloadTransfer {
    let fd: Int32
    let requestedOffset: Int64
    let knownTotal: Int64?
    let url: URL
    let knownFileName: String?
    let onMetadata: (DownloadMetadata) -> Void
    let onProgress: (Int64, Int64?) -> Void

    var headers = ResponseHeaders()
    /// Decided on the first body byte (or after the transfer when there was no body).
    private(set) var action: ResponseAction?
    /// Set when the body was refused (a web page, a write error): the attempt's final word.
    private(set) var refusal: ResponseAction?
    private(set) var position: Int64 = 0
    private(set) var metadata: DownloadMetadata?
    private var lastReport: UInt64 = 0

    init(fd: Int32, requestedOffset: Int64, knownTotal: Int64?, url: URL, knownFileName: String?,
         onMetadata: @escaping (DownloadMetadata) -> Void, onProgress: @escaping (Int64, Int64?) -> Void) {
        self.fd = fd
        self.requestedOffset = requestedOffset
        self.knownTotal = knownTotal
        self.url = url
        self.knownFileName = knownFileName
        self.onMetadata = onMetadata
        self.onProgress = onProgress
        self.position = requestedOffset
    }

    /// Takes the decision for the response whose headers have arrived, and prepares the file.
    @discardableResult
    func decide() -> ResponseAction {
        if let action { return action }
        let decided = ResponseDecision.evaluate(headers, requestedOffset: requestedOffset, knownTotal: knownTotal)
        action = decided
        switch decided {
        case .writeFromStart(let total):
            if ftruncate(fd, 0) != 0 || lseek(fd, 0, SEEK_SET) < 0 {
                refusal = .fail(reason: "Cannot reset the partial file: \(String(cString: strerror(errno)))")
            }
            position = 0
            if let total { Self.reserve(fd, bytes: total) }
            publishMetadata(total: total)
        case .append(let total):
            if lseek(fd, off_t(requestedOffset), SEEK_SET) < 0 {
                refusal = .fail(reason: "Cannot seek in the partial file: \(String(cString: strerror(errno)))")
            }
            position = requestedOffset
            publishMetadata(total: total ?? knownTotal)
        default:
            break
        }
        return decided
    }

    /// Writes one chunk of body. Returns false to make libcurl abort the transfer.
    func receive(_ chunk: UnsafeRawBufferPointer) -> Bool {
        let decided = decide()
        guard refusal == nil else { return false }
        switch decided {
        case .writeFromStart, .append: break
        default: return false   // a status we don't store (error page, 416 body, restart)
        }
        if position == 0, case .writeFromStart = decided, ResponseDecision.looksLikeHTML(chunk) {
            refusal = .fail(reason: "The server sent a web page instead of a media file; the link may point to a preview or sign-in page")
            return false
        }
        var offset = 0
        while offset < chunk.count {
            let n = write(fd, chunk.baseAddress! + offset, chunk.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                refusal = .fail(reason: "Cannot write the download: \(String(cString: strerror(errno)))")
                return false
            }
            offset += n
        }
        position += Int64(chunk.count)
        let now = DispatchTime.now().uptimeNanoseconds
        if now - lastReport > 250_000_000 {
            lastReport = now
            onProgress(position, metadata?.total)
        }
        return true
    }

    private typealias Fallocate = @convention(c) (Int32, Int32, Int64, Int64) -> Int32
    /// glibc's `fallocate`, looked up at run time: Swift's Glibc module leaves it out.
    private static let fallocateFunction: Fallocate? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "fallocate64") ?? dlsym(UnsafeMutableRawPointer(bitPattern: 0), "fallocate") else { return nil }
        return unsafeBitCast(symbol, to: Fallocate.self)
    }()

    /// Reserves disk blocks for the whole file without changing its size
    /// (`FALLOC_FL_KEEP_SIZE`), so the size keeps meaning "bytes received" for a resume, and
    /// a full disk shows up now rather than halfway. Best effort.
    static func reserve(_ fd: Int32, bytes: Int64) {
        let keepSize: Int32 = 1
        _ = fallocateFunction?(fd, keepSize, 0, bytes)
    }

    private func publishMetadata(total: Int64?) {
        let name = knownFileName ?? DownloadFileName.choose(
            contentDisposition: headers["content-disposition"], url: url, contentType: headers.contentType)
        let meta = DownloadMetadata(fileName: name, total: total, etag: headers.etag,
                                    lastModified: headers.lastModified, contentType: headers.contentType)
        metadata = meta
        onMetadata(meta)
    }
}
