import CCurl
import Foundation

extension CurlEasy {
    /// Sets the options `request` describes on this handle: the one place a request's choices
    /// become `CURLOPT_*` values. Called by `init(_:)`, once, on a fresh handle.
    func apply(_ request: CurlRequest) throws {
        try set(CURLOPT_URL, request.url.absoluteString)
        switch request.method {
        case .get:
            break
        case .head:
            try set(CURLOPT_NOBODY, 1)
        case .post(let body):
            try set(CURLOPT_POST, 1)
            // The size first: setting it after COPYPOSTFIELDS would discard the copied body.
            try set(CURLOPT_POSTFIELDSIZE, body.count)
            try setCopiedBody(body)
        }
        switch request.redirects {
        case .none:
            break
        case .follow(let max):
            try set(CURLOPT_FOLLOWLOCATION, 1)
            try set(CURLOPT_MAXREDIRS, max)
        }
        if request.decodesContent { try set(CURLOPT_ACCEPT_ENCODING, "") }   // every encoding this libcurl supports
        if let seconds = request.connectTimeout { try set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(seconds)) }
        if let seconds = request.totalTimeout { try set(CURLOPT_TIMEOUT_MS, Self.milliseconds(seconds)) }
        if let floor = request.speedFloor {
            try set(CURLOPT_LOW_SPEED_LIMIT, floor.bytesPerSecond)
            try set(CURLOPT_LOW_SPEED_TIME, floor.seconds)
        }
        if let size = request.bufferSize { try set(CURLOPT_BUFFERSIZE, size) }
        if let agent = request.userAgent { try set(CURLOPT_USERAGENT, agent) }
        if !request.headers.isEmpty { try setHeaders(request.headers) }
        if let range = request.range { try set(CURLOPT_RANGE, range.text) }
        if let cookies = request.cookies {
            try set(CURLOPT_COOKIEFILE, "")   // turns the cookie engine on, reads no file
            for line in cookies { try set(CURLOPT_COOKIELIST, line) }
        }
        if let check = request.connectionGuard { try install(check) }
    }

    /// A duration in seconds as libcurl's milliseconds (whole, truncated as before; a negative
    /// or non-finite value is clamped rather than trapping).
    static func milliseconds(_ seconds: TimeInterval) -> Int {
        Int(min(max(seconds, 0), 1e9) * 1000)
    }

    /// CURLOPT_COPYPOSTFIELDS from bytes: libcurl copies the POSTFIELDSIZE bytes before this
    /// returns. An empty body is passed as "" (libcurl reads no byte of it).
    private func setCopiedBody(_ body: Data) throws {
        if body.isEmpty { return try set(CURLOPT_COPYPOSTFIELDS, "") }
        var bytes = [UInt8](body)
        try bytes.withUnsafeMutableBytes { buffer in
            try applyOption(piper_curl_setopt_pointer(handleForExtensions, CURLOPT_COPYPOSTFIELDS, buffer.baseAddress))
        }
    }
}
