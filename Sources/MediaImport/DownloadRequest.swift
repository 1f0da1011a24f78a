import Foundation

/// One download to carry out: where from, where the partial file lives, and what earlier
/// attempts (perhaps by a process that died) learned about the resource.
public struct DownloadRequest: Sendable, Equatable {
    public var url: URL
    public var partialFile: URL
    public var knownTotal: Int64?
    public var etag: String?
    public var lastModified: String?
    public var fileName: String?

    public init(url: URL, partialFile: URL, knownTotal: Int64? = nil, etag: String? = nil,
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

/// What the server told us about the resource, reported as soon as a response starts so the
/// journal can keep it for a resume by another process.
public struct DownloadMetadata: Sendable, Equatable {
    public var fileName: String
    public var total: Int64?
    public var etag: String?
    public var lastModified: String?
    public var contentType: String?
}

/// A finished download: the partial file is complete and fsynced.
public struct DownloadResult: Sendable, Equatable {
    public var metadata: DownloadMetadata
    public var bytes: Int64
    public var attempts: Int
}

/// Hooks the downloader calls on its own thread while it works.
public struct DownloadEvents {
    public var metadata: (DownloadMetadata) -> Void
    public var progress: (_ bytes: Int64, _ total: Int64?) -> Void
    public var retrying: (_ reason: String, _ delay: Double) -> Void
    /// Asked before each request and with each progress report; false stops the download
    /// with "Cancelled" (`piper downloads cancel`).
    public var shouldContinue: () -> Bool

    public init(metadata: @escaping (DownloadMetadata) -> Void = { _ in },
                progress: @escaping (Int64, Int64?) -> Void = { _, _ in },
                retrying: @escaping (String, Double) -> Void = { _, _ in },
                shouldContinue: @escaping () -> Bool = { true }) {
        self.metadata = metadata
        self.progress = progress
        self.retrying = retrying
        self.shouldContinue = shouldContinue
    }
}
