import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A loopback port nothing listens on: bound, read back, closed. For the tests of a server
/// that is down (a refused connection), and for bringing a `TestHTTPServer` up on it later.
public func closedPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ClosedPortError(errno: errno) }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
        }
    }
    guard bound else { throw ClosedPortError(errno: errno) }
    return Int(UInt16(bigEndian: address.sin_port))
}

public struct ClosedPortError: Error {
    public let errno: Int32
}
