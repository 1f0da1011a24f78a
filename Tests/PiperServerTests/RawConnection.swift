import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to a local server, for clients no HTTP library would be: ones that
/// trickle a byte at a time, or send heads larger than any sane client. It can bind a source
/// address (any of 127.0.0.0/8 on Linux) so one test can play two clients.
///
/// `@unchecked Sendable`: `fd` never changes, and the kernel serializes calls on a socket (one
/// thread trickles while the test peeks).
final class RawConnection: @unchecked Sendable {
    let fd: Int32

    /// `fd` is stored only once connected: a class whose init throws after its properties are
    /// set runs `deinit`, and a second `close` of the refused socket's number would close
    /// whatever another thread had opened in between (another test's SQLite file, say).
    /// `receiveBuffer` shrinks the socket's receive buffer (set before connecting, so the window
    /// the server sees is small): a client that reads slowly then holds the server's sending.
    init(port: UInt16, from source: String = "127.0.0.1", receiveBuffer: Int32? = nil) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServeFailure(message: "socket() failed: \(errno)") }
        if var size = receiveBuffer {
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        _ = inet_pton(AF_INET, source, &local.sin_addr)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = port.bigEndian
        _ = inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr)
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) } }
        let connected = withUnsafePointer(to: &remote) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, size) } }
        guard bound == 0, connected == 0 else {
            let error = errno
            close(fd)
            throw ServeFailure(message: "cannot connect from \(source) to port \(port): errno \(error)")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// False once the server has closed the connection (or it broke).
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Whether the server has closed its side (without waiting).
    var isClosedByServer: Bool {
        var byte: UInt8 = 0
        let got = recv(fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        return got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Reads up to `count` bytes, waiting at most `timeout` seconds: how many arrived, or nil once
    /// the server has closed the connection.
    func read(upTo count: Int, timeout: TimeInterval) -> Int? {
        var wait = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: count)
        let got = recv(fd, &buffer, count, 0)
        if got > 0 { return got }
        return got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? 0 : nil
    }

    /// Everything the server sends until it closes, or until `timeout` seconds pass.
    func readToEnd(timeout: TimeInterval) -> String {
        var wait = timeval(tv_sec: Int(timeout), tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let got = recv(fd, &buffer, buffer.count, 0)
            if got <= 0 { break }
            received += buffer[0..<got]
        }
        return String(decoding: received, as: UTF8.self)
    }
}
