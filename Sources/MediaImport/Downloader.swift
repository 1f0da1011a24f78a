import CCurl
import Foundation
import PiperSystem
#if canImport(Glibc)
import Glibc
#endif

/// Downloads one URL into its partial file with libcurl, resuming with `Range` + `If-Range`
/// and retrying transient failures with exponential backoff. Blocking: run it on a worker
/// thread. Each call uses its own curl handle, so one `Downloader` may serve several threads.
/// `connectionGuard` is the address policy of a server downloading for its clients (nil: the
/// CLI's agent, which fetches what its own user shared): every connection is checked against it.
package struct Downloader: Sendable {
    package var settings: DownloadSettings
    package var connectionGuard: CurlConnectionGuard?

    package init(settings: DownloadSettings = DownloadSettings(), connectionGuard: CurlConnectionGuard? = nil) {
        self.settings = settings
        self.connectionGuard = connectionGuard
    }

    /// The outcome of one HTTP attempt.
    enum Attempt: Equatable {
        case complete(DownloadMetadata, bytes: Int64)
        case retry(String, retryAfter: String?, progressed: Bool)
        case restart(String)
        case fail(String)
        /// Below the speed floor (libcurl's low-speed limit, before the request's own deadline).
        case stalled(String)
    }

    /// Downloads until the partial file holds the whole resource (fsynced), or throws
    /// `DownloadError.failed` with the reason. Every job ends: failures in a row and restarts
    /// are counted separately (progress forgives the first, never the second), every request
    /// counts against `maxAttempts`, the bytes fetched against the fetch budget, and the
    /// whole job against `jobTimeout`.
    package func download(_ request: DownloadRequest, events: DownloadEvents = DownloadEvents()) throws -> DownloadResult {
        var request = request
        let policy = RetryPolicy(settings: settings)
        let deadline = Date().addingTimeInterval(settings.jobTimeout)
        var failures = 0
        var restarts = 0
        var attempts = 0
        var fetched: Int64 = 0
        while true {
            attempts += 1
            guard events.shouldContinue() else { throw DownloadError.failed(DownloadError.cancelled) }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else {
                throw DownloadError.failed("Gave up: the download took longer than \(Self.duration(settings.jobTimeout)) (PIPER_DOWNLOAD_JOB_TIMEOUT)")
            }
            let (outcome, received) = try attempt(request, events: events, timeout: min(settings.attemptTimeout, remaining), learned: { meta in
                request.fileName = meta.fileName
                request.knownTotal = meta.total ?? request.knownTotal
                request.etag = meta.etag
                request.lastModified = meta.lastModified
            })
            fetched += received
            if case .complete(let meta, let bytes) = outcome {
                return DownloadResult(metadata: meta, bytes: bytes, attempts: attempts)
            }
            if case .fail(let reason) = outcome { throw DownloadError.failed(reason) }
            // A stall gives the slot up: the agent runs the next job and tries this one again soon.
            if case .stalled(let reason) = outcome { throw DownloadError.stalled(reason) }
            if let size = request.knownTotal, fetched > settings.fetchBudget(forSize: size) {
                throw DownloadError.failed("Gave up: fetched \(ByteText.format(fetched)) for a file of \(ByteText.format(size)); "
                                           + "the server keeps sending it incomplete")
            }
            if attempts >= settings.maxAttempts {
                throw DownloadError.failed("Gave up after \(attempts) requests (PIPER_DOWNLOAD_MAX_ATTEMPTS): \(outcome.reason)")
            }
            switch outcome {
            case .restart(let reason):
                unlink(request.partialFile.path)
                request.knownTotal = nil
                restarts += 1
                if restarts >= settings.attempts { throw gaveUp(reason, restarts: true) }
                events.retrying("restarting from the beginning: \(reason)", 0)
            case .retry(let reason, let retryAfter, let progressed):
                // An attempt that moved the file forward is not held against the download.
                failures = progressed ? 1 : failures + 1
                if failures >= settings.attempts { throw gaveUp(reason, restarts: false) }
                let wait = min(policy.delay(afterFailedAttempts: failures, retryAfter: retryAfter, jitter: Double.random(in: 0...1)),
                               max(deadline.timeIntervalSinceNow, 0))
                events.retrying(reason, wait)
                if wait > 0 { usleep(useconds_t(min(wait, 3600) * 1_000_000)) }
            case .complete, .fail, .stalled:
                break
            }
        }
    }

    /// Restarts that never line up are final; attempts that could not reach the server (or got
    /// only 5xx, 408, 429) are worth another try later.
    private func gaveUp(_ reason: String, restarts: Bool) -> DownloadError {
        let count = settings.attempts
        let what = restarts ? "restart" : "attempt"
        let sentence = "Gave up after \(count) \(what)\(count == 1 ? "" : "s"): \(reason)"
        return restarts ? .failed(sentence) : .unreachable(sentence)
    }

    static func duration(_ seconds: Double) -> String {
        if seconds >= 3600, seconds.truncatingRemainder(dividingBy: 3600) == 0 { return "\(Int(seconds / 3600)) h" }
        if seconds >= 60, seconds.truncatingRemainder(dividingBy: 60) == 0 { return "\(Int(seconds / 60)) min" }
        return "\(Int(seconds.rounded())) s"
    }

    /// One request: resume from the partial file's size when something can prove the server's
    /// bytes are of the same version (`ResumePlan`), else start again. Returns the outcome and
    /// the body bytes it received.
    func attempt(_ request: DownloadRequest, events: DownloadEvents, timeout: Double,
                 learned: @escaping (DownloadMetadata) -> Void) throws -> (Attempt, received: Int64) {
        let path = request.partialFile.path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)   // read too: an overlap is compared
        guard fd >= 0 else { throw DownloadError.cannotWrite(path, errno) }
        defer { close(fd) }
        var st = stat()
        let size: Int64 = fstat(fd, &st) == 0 ? Int64(st.st_size) : 0
        let plan = ResumePlan.choose(partialSize: size, validator: request.ifRange)
        // Nothing proves the kept bytes' version and they are few: fetched again whole.
        if plan == .fromStart, size > 0, ftruncate(fd, 0) != 0 { throw DownloadError.cannotWrite(path, errno) }

        let transfer = DownloadTransfer(
            fd: fd, plan: plan, request: request, maxBytes: settings.maxBytes,
            onMetadata: { meta in learned(meta); events.metadata(meta) }, onProgress: events.progress)
        transfer.shouldContinue = events.shouldContinue
        var curlRequest = curlRequest(request.url, plan: plan)
        curlRequest.totalTimeout = min(max(timeout, 0.001), 365 * 86400)
        let easy = try CurlEasy(curlRequest)
        easy.receiver = transfer
        let started = Date()
        let code = easy.perform()
        var outcome = conclude(transfer, code: code, offset: plan.kept, request: request, events: events)
        // libcurl ends both a transfer below the speed floor and one past its deadline with a
        // timeout; one that ended well before its deadline was below the floor.
        if case .retry = outcome, let code, code.isTimeout, Date().timeIntervalSince(started) < (curlRequest.totalTimeout ?? .infinity) - 1 {
            outcome = .stalled("the download stalled below \(ByteText.format(Int64(settings.stallBytesPerSecond)))/s for "
                               + "\(settings.stallSeconds) s; it gives its place to the next download")
        }
        return (outcome, transfer.received)
    }

    /// One attempt's transfer (its total timeout is the caller's): redirects, the stall floor,
    /// large chunks, the resume's `Range` and `If-Range`, the bytes as sent (no decoding).
    private func curlRequest(_ url: URL, plan: ResumePlan) -> CurlRequest {
        var request = CurlRequest(url: url)
        request.redirects = .standard
        request.connectTimeout = TimeInterval(settings.connectTimeout)
        request.speedFloor = .init(bytesPerSecond: settings.stallBytesPerSecond, seconds: settings.stallSeconds)
        request.bufferSize = 128 * 1024
        request.userAgent = settings.userAgent
        request.headers = ["Accept-Encoding: identity"]
        if plan.requestedOffset > 0 {
            request.range = .init(from: plan.requestedOffset)
            if let validator = plan.ifRange { request.headers.append("If-Range: \(validator)") }
        }
        request.connectionGuard = connectionGuard
        return request
    }

    /// Turns the finished attempt (curl's code plus what the callbacks saw) into an outcome.
    private func conclude(_ transfer: DownloadTransfer, code: CurlError?, offset: Int64,
                          request: DownloadRequest, events: DownloadEvents) -> Attempt {
        switch transfer.refusal {
        case .fail(let reason): return .fail(reason)
        case .restart(let reason): return .restart(reason)
        default: break
        }
        let progressed = transfer.position > offset
        if let code, transfer.action == nil {
            return code.isRetryable ? .retry(describe(code), retryAfter: nil, progressed: false) : .fail("Download failed: \(code)")
        }
        let action = transfer.decide()
        switch action {
        case .fail(let reason): return .fail(reason)
        case .restart(let reason): return .restart(reason)
        case .retry(let reason, let retryAfter): return .retry(reason, retryAfter: retryAfter, progressed: false)
        case .rangeNotSatisfiable(let total):
            if let size = total ?? request.knownTotal, size == offset, offset > 0, let name = request.fileName {
                let meta = DownloadMetadata(fileName: name, total: size, etag: request.etag,
                                            lastModified: request.lastModified, contentType: nil)
                return fsync(transfer.fd) == 0 ? .complete(meta, bytes: size) : .fail("Cannot sync the download to disk")
            }
            return .restart("the server refused the resume (HTTP 416)")
        case .writeFromStart, .append:
            break
        }
        if let refusal = transfer.refusal, case .fail(let reason) = refusal { return .fail(reason) }
        if let code {
            return code.isRetryable || code.isWriteAbort
                ? .retry(describe(code), retryAfter: nil, progressed: progressed)
                : .fail("Download failed: \(code)")
        }
        guard let meta = transfer.metadata else { return .fail("The server sent no file") }
        if transfer.position == 0 { return .fail("The server sent an empty file (0 bytes)") }
        if let total = meta.total, total != transfer.position {
            return .retry("the connection ended at byte \(transfer.position) of \(total)", retryAfter: nil, progressed: progressed)
        }
        guard fsync(transfer.fd) == 0 else { return .fail("Cannot sync the download to disk: \(String(cString: strerror(errno)))") }
        events.progress(transfer.position, meta.total)
        return .complete(meta, bytes: transfer.position)
    }

    private func describe(_ code: CurlError) -> String {
        if code.isTimeout, settings.attemptTimeout < 365 * 86400 {
            return "the download stalled or ran past its \(Self.duration(settings.attemptTimeout)) limit per request"
        }
        if code.code == CURLE_RECV_ERROR { return "the connection was reset" }
        if code.code == CURLE_COULDNT_CONNECT { return "could not connect to the server" }
        return code.description
    }
}

extension Downloader.Attempt {
    var reason: String {
        switch self {
        case .complete: return "complete"
        case .retry(let reason, _, _), .restart(let reason), .fail(let reason), .stalled(let reason): return reason
        }
    }
}
