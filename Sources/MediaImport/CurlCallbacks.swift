import CCurl
import Foundation

// libcurl's callbacks: plain global functions (never closures at main.swift top level), each
// handed the transfer through its userdata pointer and run on the thread calling perform.

func piperCurlHeaderCallback(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userdata: UnsafeMutableRawPointer?) -> Int {
    let length = size * count
    guard let data, let userdata else { return length }
    let transfer = Unmanaged<DownloadTransfer>.fromOpaque(userdata).takeUnretainedValue()
    let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    transfer.headers.consume(line: line)
    return length
}

func piperCurlWriteCallback(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userdata: UnsafeMutableRawPointer?) -> Int {
    let length = size * count
    guard let data, let userdata else { return 0 }
    let transfer = Unmanaged<DownloadTransfer>.fromOpaque(userdata).takeUnretainedValue()
    return transfer.receive(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

/// Discards a body (used by the link probe).
func piperCurlDiscardCallback(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userdata: UnsafeMutableRawPointer?) -> Int {
    size * count
}

/// Collects headers only (used by the link probe).
func piperCurlProbeHeaderCallback(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userdata: UnsafeMutableRawPointer?) -> Int {
    let length = size * count
    guard let data, let userdata else { return length }
    let box = Unmanaged<ProbeHeaders>.fromOpaque(userdata).takeUnretainedValue()
    box.headers.consume(line: String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self))
    return length
}

/// Headers gathered by a probe. Not Sendable: lives on the probing thread.
final class ProbeHeaders {
    var headers = ResponseHeaders()
}
