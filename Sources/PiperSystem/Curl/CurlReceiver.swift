import CCurl

/// What a transfer's libcurl callbacks feed. libcurl calls it on the thread running
/// `CurlEasy.perform()`, and only during that call.
package protocol CurlReceiver: AnyObject {
    /// One chunk of the body. Return false to stop the transfer: `perform()` then fails with
    /// `CURLE_WRITE_ERROR` (`CurlError.isWriteAbort`), and the receiver knows why.
    func curlReceive(body: UnsafeRawBufferPointer, from easy: CurlEasy) -> Bool
    /// One header line as libcurl delivers it, CRLF included: status lines of every response
    /// (redirects too) and the blank line ending each block.
    func curlReceive(headerLine: String)
}

extension CurlReceiver {
    /// Most receivers want the body only.
    package func curlReceive(headerLine: String) {}
}

// libcurl's callbacks: plain global functions (never closures at main.swift top level, which
// Swift would make @MainActor). Their userdata is the `CurlEasy` itself, alive for the whole
// `perform()`; it hands the bytes to its receiver. No receiver: the body is discarded.

func piperCurlWrite(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userdata: UnsafeMutableRawPointer?) -> Int {
    let length = size * count
    guard let userdata else { return 0 }
    let easy = Unmanaged<CurlEasy>.fromOpaque(userdata).takeUnretainedValue()
    guard let receiver = easy.receiver, length > 0, let data else { return length }
    return receiver.curlReceive(body: UnsafeRawBufferPointer(start: data, count: length), from: easy) ? length : 0
}

func piperCurlHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userdata: UnsafeMutableRawPointer?) -> Int {
    let length = size * count
    guard let data, let userdata else { return length }
    let easy = Unmanaged<CurlEasy>.fromOpaque(userdata).takeUnretainedValue()
    easy.receiver?.curlReceive(headerLine: String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self))
    return length
}
