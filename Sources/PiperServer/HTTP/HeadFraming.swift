import Foundation

/// What a request head says about where its body ends, counted header by header as libmicrohttpd
/// hands them over (the request's header dictionary keeps one value per name, so a second
/// Content-Length would be gone by the time a route looks).
///
/// Why refuse rather than pick one: libmicrohttpd 0.9.75 frames a request that has both
/// Content-Length and `Transfer-Encoding: chunked` by the chunks, takes the first of two
/// Content-Lengths, and keeps `Transfer-Encoding :` (a space before the colon) as a header named
/// `"Transfer-Encoding "` that frames nothing. A proxy in front may read the same bytes the other
/// way, and what one side takes for the rest of a body the other answers as a second request
/// (request smuggling). Its strict mode (`MHD_OPTION_STRICT_FOR_CLIENT` = 1) changes none of
/// these on 0.9.75 (it only refuses HTTP/1.1 heads without a Host), so Piper checks itself:
/// RFC 9112 §6.1 and §6.3 allow a server to refuse such a head, and ask it to close the
/// connection after the 400, since where the next request would start is unknown.
struct HeadFraming: Sendable, Equatable {
    var contentLengths = 0
    var transferEncodings = 0
    /// The Transfer-Encoding is exactly `chunked` (all Piper reads; anything else is refused).
    var chunkedOnly = true
    /// A header name that is empty or holds a byte outside RFC 9110's token characters
    /// (whitespace before the colon, say).
    var malformedName = false

    /// Counts one header as it is handed over (`name` and `value` NUL-terminated).
    mutating func count(name: UnsafePointer<CChar>, value: UnsafePointer<CChar>?) {
        var length = 0
        var token = true
        while name[length] != 0 {
            if !Self.isTokenByte(UInt8(bitPattern: name[length])) { token = false }
            length += 1
        }
        if !token || length == 0 { malformedName = true }
        if strcasecmp(name, "content-length") == 0 { contentLengths += 1 }
        if strcasecmp(name, "transfer-encoding") == 0 {
            transferEncodings += 1
            let coding = value.map { String(cString: $0) }?.trimmingCharacters(in: .whitespaces) ?? ""
            if coding.lowercased() != "chunked" { chunkedOnly = false }
        }
    }

    /// The 400 this head has earned, if any.
    var refusal: HTTPError? {
        if malformedName {
            return HTTPError(400, "A request header name holds a character a header name may not have")
        }
        if contentLengths > 0 && transferEncodings > 0 {
            return HTTPError(400, "The request has both Content-Length and Transfer-Encoding")
        }
        if contentLengths > 1 {
            return HTTPError(400, "The request has more than one Content-Length")
        }
        if transferEncodings > 1 || !chunkedOnly {
            return HTTPError(400, "The request's Transfer-Encoding is not a single chunked")
        }
        return nil
    }

    /// RFC 9110 §5.6.2: `tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." /
    /// "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// The refusal as sent: JSON or an HTML page by `accept`, with `Connection: close`, which
    /// makes libmicrohttpd close the connection once it is sent (the bytes after this head are
    /// never read as a request).
    static func answer(_ refusal: HTTPError, accept: String?) -> HTTPResponse {
        var response = ErrorPage.negotiated(refusal, accept: accept)
        response.headers.append((name: "Connection", value: "close"))
        return response
    }
}
