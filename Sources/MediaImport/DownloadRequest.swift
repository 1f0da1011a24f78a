import Foundation

/// One download to carry out: where from, where the partial file lives, and what earlier
/// attempts (perhaps by a process that died) learned about the resource.
package struct DownloadRequest: Sendable, Equatable {
    package var url: URL
    package var partialFile: URL
    package var knownTotal: Int64?
    package var etag: String?
    package var lastModified: String?
    package var fileName: String?

    package init(url: URL, partialFile: URL, knownTotal: Int64? = nil, etag: String? = nil,
                lastModified: String? = nil, fileName: String? = nil) {
        self.url = url
        self.partialFile = partialFile
        self.knownTotal = knownTotal
        self.etag = etag
        self.lastModified = lastModified
        self.fileName = fileName
    }

    /// The `If-Range` validator: a strong ETag, else Last-Modified (weak ETags can't be used).
    var ifRange: String? {
        if let etag, !etag.hasPrefix("W/"), !etag.isEmpty { return etag }
        if let lastModified, !lastModified.isEmpty { return lastModified }
        return nil
    }
}

/// How an attempt picks up a partial file: a resume is trusted only when something proves the
/// server's bytes are of the same version as the ones kept. Without that proof a resume splices
/// two versions (the start of the old file, the end of the new) into one that never existed.
enum ResumePlan: Equatable, Sendable {
    /// Nothing kept: no partial file, or nothing could prove its version and it is small.
    case fromStart
    /// `Range` from `offset` with `If-Range: validator`; the 206 must carry that validator.
    case ifRange(offset: Int64, validator: String)
    /// No validator: the bytes from `offset` to `kept` are fetched again and must equal the
    /// partial file's, then the rest is appended.
    case overlap(offset: Int64, kept: Int64)

    /// How much is fetched again to compare: enough to span several of a server's write
    /// blocks, little beside a file of a megabyte or more.
    static let overlapBytes: Int64 = 64 * 1024
    /// Below this, a partial file without a validator is dropped and fetched again whole: it
    /// costs at most this much, and a short overlap proves little.
    static let overlapAbove: Int64 = 1 << 20

    static func choose(partialSize size: Int64, validator: String?) -> ResumePlan {
        guard size > 0 else { return .fromStart }
        if let validator { return .ifRange(offset: size, validator: validator) }
        return size > overlapAbove ? .overlap(offset: size - overlapBytes, kept: size) : .fromStart
    }

    /// The first byte the request asks for.
    var requestedOffset: Int64 {
        switch self {
        case .fromStart: return 0
        case .ifRange(let offset, _), .overlap(let offset, _): return offset
        }
    }

    /// The bytes of the partial file this attempt keeps (and, for an overlap, checks).
    var kept: Int64 {
        switch self {
        case .fromStart: return 0
        case .ifRange(let offset, _): return offset
        case .overlap(_, let kept): return kept
        }
    }

    var ifRange: String? {
        if case .ifRange(_, let validator) = self { return validator }
        return nil
    }
}

/// What the server told us about the resource, reported as soon as a response starts so the
/// journal can keep it for a resume by another process.
package struct DownloadMetadata: Sendable, Equatable {
    package var fileName: String
    package var total: Int64?
    package var etag: String?
    package var lastModified: String?
    package var contentType: String?
}

/// A finished download: the partial file is complete and fsynced.
package struct DownloadResult: Sendable, Equatable {
    package var metadata: DownloadMetadata
    package var bytes: Int64
    package var attempts: Int
}

/// Hooks the downloader calls on its own thread while it works.
package struct DownloadEvents {
    package var metadata: (DownloadMetadata) -> Void
    package var progress: (_ bytes: Int64, _ total: Int64?) -> Void
    package var retrying: (_ reason: String, _ delay: Double) -> Void
    /// Asked before each request and with each progress report; false stops the download
    /// with "Cancelled" (`piper downloads cancel`).
    package var shouldContinue: () -> Bool

    package init(metadata: @escaping (DownloadMetadata) -> Void = { _ in },
                progress: @escaping (Int64, Int64?) -> Void = { _, _ in },
                retrying: @escaping (String, Double) -> Void = { _, _ in },
                shouldContinue: @escaping () -> Bool = { true }) {
        self.metadata = metadata
        self.progress = progress
        self.retrying = retrying
        self.shouldContinue = shouldContinue
    }
}
