import PiperSystem

// What libcurl's callbacks feed (PiperSystem's `CurlEasy` calls them on the attempt's thread).

extension DownloadTransfer: CurlReceiver {
    func curlReceive(headerLine: String) {
        headers.consume(line: headerLine)
    }

    func curlReceive(body: UnsafeRawBufferPointer, from easy: CurlEasy) -> Bool {
        receive(body)
    }
}

/// Headers gathered by a probe; its body, if any, is discarded. Not Sendable: lives on the
/// probing thread.
final class ProbeHeaders: CurlReceiver {
    var headers = ResponseHeaders()

    func curlReceive(headerLine: String) {
        headers.consume(line: headerLine)
    }

    func curlReceive(body: UnsafeRawBufferPointer, from easy: CurlEasy) -> Bool { true }
}
