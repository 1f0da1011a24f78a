import CSystem
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
    /// The partial file's bytes this attempt keeps: from `requestedOffset` up to here the body
    /// must equal them (an overlap check, `ResumePlan.overlap`); past here it is written.
    private(set) var kept: Int64
    /// The validator sent in `If-Range`, which a 206 must carry back.
    let ifRange: String?
    let knownTotal: Int64?
    let url: URL
    let knownFileName: String?
    /// The validators and size limit the response is judged against (see `ResponseDecision`).
    let knownETag: String?
    let knownLastModified: String?
    let maxBytes: Int64
    let onMetadata: (DownloadMetadata) -> Void
    let onProgress: (Int64, Int64?) -> Void
    var shouldContinue: () -> Bool = { true }

    var headers = ResponseHeaders()
    /// Decided on the first body byte (or after the transfer when there was no body).
    private(set) var action: ResponseAction?
    /// Set when the body was refused (a web page, a write error): the attempt's final word.
    private(set) var refusal: ResponseAction?
    private(set) var position: Int64 = 0
    private(set) var metadata: DownloadMetadata?
    /// Body bytes this attempt wrote, whatever the offset: what the job's fetch budget counts.
    private(set) var received: Int64 = 0
    private var lastReport: UInt64 = 0

    init(fd: Int32, plan: ResumePlan, request: DownloadRequest, maxBytes: Int64,
         onMetadata: @escaping (DownloadMetadata) -> Void, onProgress: @escaping (Int64, Int64?) -> Void) {
        self.fd = fd
        self.requestedOffset = plan.requestedOffset
        self.kept = plan.kept
        self.ifRange = plan.ifRange
        self.knownTotal = request.knownTotal
        self.url = request.url
        self.knownFileName = request.fileName
        self.knownETag = request.etag
        self.knownLastModified = request.lastModified
        self.maxBytes = maxBytes
        self.onMetadata = onMetadata
        self.onProgress = onProgress
        self.position = plan.requestedOffset
    }

    /// Takes the decision for the response whose headers have arrived, and prepares the file.
    @discardableResult
    func decide() -> ResponseAction {
        if let action { return action }
        let decided = ResponseDecision.evaluate(headers, requestedOffset: requestedOffset, knownTotal: knownTotal,
                                                knownETag: knownETag, knownLastModified: knownLastModified, ifRange: ifRange,
                                                maxBytes: maxBytes)
        action = decided
        switch decided {
        case .writeFromStart(let total):
            if ftruncate(fd, 0) != 0 || lseek(fd, 0, SEEK_SET) < 0 {
                refusal = .fail(reason: "Cannot reset the partial file: \(String(cString: strerror(errno)))")
            }
            position = 0
            kept = 0   // the whole file comes again: nothing kept, nothing to compare
            if let total, refusal == nil { refusal = Self.reserve(fd, from: 0, bytes: total) }
            publishMetadata(total: total)
        case .append(let total):
            position = requestedOffset
            if let total = total ?? knownTotal, total > kept {
                refusal = Self.reserve(fd, from: kept, bytes: total - kept)
            }
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
        if position == 0, case .writeFromStart = decided, let reason = ResponseDecision.refusesAsPage(chunk, contentType: headers.contentType) {
            refusal = .fail(reason: reason)
            return false
        }
        if position + Int64(chunk.count) > maxBytes {
            refusal = .fail(reason: ResponseDecision.tooLarge(position + Int64(chunk.count), limit: maxBytes))
            return false
        }
        var offset = 0
        if position < kept {
            // The overlap: these bytes are the partial file's already, and must be the same.
            offset = min(Int(kept - position), chunk.count)
            guard Self.matches(fd, at: position, UnsafeRawBufferPointer(rebasing: chunk[..<offset])) else {
                refusal = .restart(reason: "the server's bytes before the resume point differ from the partial file's, "
                                   + "so the file changed on the server")
                return false
            }
        }
        while offset < chunk.count {
            let n = pwrite(fd, chunk.baseAddress! + offset, chunk.count - offset, off_t(position) + off_t(offset))
            if n < 0 {
                if errno == EINTR { continue }
                let code = errno
                if code == ENOSPC || code == EDQUOT {
                    let needed = (metadata?.total).map { max($0 - position, Int64(chunk.count)) } ?? Int64(chunk.count - offset)
                    refusal = .fail(reason: Self.noSpace(fd, needs: needed))
                } else {
                    refusal = .fail(reason: "Cannot write the download: \(String(cString: strerror(code)))")
                }
                return false
            }
            offset += n
        }
        position += Int64(chunk.count)
        received += Int64(chunk.count)
        let now = DispatchTime.now().uptimeNanoseconds
        if now - lastReport > 250_000_000 {
            lastReport = now
            onProgress(position, metadata?.total)
            if !shouldContinue() {
                refusal = .fail(reason: DownloadError.cancelled)
                return false
            }
        }
        return true
    }

    /// True when the file holds exactly `bytes` at `offset`.
    static func matches(_ fd: Int32, at offset: Int64, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count > 0 else { return true }
        var stored = [UInt8](repeating: 0, count: bytes.count)
        var read = 0
        while read < bytes.count {
            let n = stored.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + read, bytes.count - read, off_t(offset) + off_t(read)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            read += n
        }
        return stored.withUnsafeBytes { $0.elementsEqual(bytes) }
    }

    /// Reserves disk blocks for `bytes` from `offset` without changing the file's size
    /// (`FALLOC_FL_KEEP_SIZE`), so the size keeps meaning "bytes received" for a resume, and a
    /// full disk shows up now rather than halfway: then the refusal to stop with. A file system
    /// that can't reserve (EOPNOTSUPP) just goes on.
    static func reserve(_ fd: Int32, from offset: Int64, bytes: Int64) -> ResponseAction? {
        guard piper_fallocate(fd, PIPER_FALLOC_FL_KEEP_SIZE, offset, bytes) != 0 else { return nil }
        let code = errno
        switch code {
        case ENOSPC, EDQUOT, EFBIG: return .fail(reason: noSpace(fd, needs: bytes))
        default: return nil
        }
    }

    /// "Not enough disk space (needs N, has M)", M being what the partial file's file system
    /// has free for this user.
    static func noSpace(_ fd: Int32, needs: Int64) -> String {
        var info = statvfs()
        let free = fstatvfs(fd, &info) == 0 ? Int64(info.f_bavail) * Int64(info.f_frsize) : 0
        return "Not enough disk space (needs \(ByteText.format(needs)), has \(ByteText.format(free)))"
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
