import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether a TCP port is already taken, found by binding it once (with SO_REUSEADDR, as the
/// server itself binds) and closing the socket again.
enum PortProbe {
    static func isInUse(host: String, port: UInt16) -> Bool {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST | AI_PASSIVE
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let info = list else { return false }
        defer { freeaddrinfo(list) }
        let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        return bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) != 0 && errno == EADDRINUSE
    }
}
