import CCurl
import Foundation
@testable import PiperSystem
import PiperTestSupport
import Testing

typealias Route = TestHTTPServer.Route
#if canImport(Glibc)
import Glibc
#endif

/// A body collector for the tests. Not Sendable: used on the test's thread only.
final class Collected: CurlReceiver {
    var body = Data()
    var headerLines: [String] = []
    func curlReceive(body bytes: UnsafeRawBufferPointer, from easy: CurlEasy) -> Bool {
        body.append(contentsOf: bytes)
        return true
    }
    func curlReceive(headerLine: String) { headerLines.append(headerLine) }
}

/// libcurl against a real local server (and a port where none listens).
@Suite(.ownThread, .serialized) struct CurlEasyTests {
    @Test func aRefusedSetterThrows() throws {
        let easy = try CurlEasy(url: URL(string: "http://127.0.0.1/")!)
        let error = try #require(throws: CurlError.self) { try easy.set(CURLoption(rawValue: 99_999), 1) }
        #expect(error.code == CURLE_UNKNOWN_OPTION)
        #expect(!error.description.isEmpty)
    }

    @Test func aRefusedConnectionCarriesLibcurlsDetailAndIsRetryableAndUnreachable() throws {
        let port = try closedPort()
        let easy = try CurlEasy(url: URL(string: "http://127.0.0.1:\(port)/")!)
        let failure = try #require(easy.perform())
        #expect(failure.code == CURLE_COULDNT_CONNECT)
        // The error buffer's sentence names the address; the generic text would not.
        #expect(failure.description.contains("127.0.0.1 port \(port)"), "\(failure)")
        #expect(failure.description != String(cString: curl_easy_strerror(CURLE_COULDNT_CONNECT)))
        #expect(failure.isRetryable)
        #expect(failure.isUnreachable)
        #expect(!failure.isTimeout)
    }

    @Test func theReceiverGetsTheBodyAndHeaderLines() throws {
        let server = try TestHTTPServer(routes: ["/page": .html("<p>hello</p>")])
        defer { server.stop() }
        let easy = try CurlEasy(url: server.url("/page"))
        let collected = Collected()
        easy.receiver = collected
        #expect(easy.perform() == nil)
        #expect(easy.responseCode == 200)
        #expect(easy.contentType == "text/html; charset=utf-8")
        #expect(String(decoding: collected.body, as: UTF8.self) == "<p>hello</p>")
        #expect(collected.headerLines.first?.hasPrefix("HTTP/1.") == true)
    }

    @Test func aReceiverThatRefusesStopsTheTransferAsAWriteAbort() throws {
        final class Refuser: CurlReceiver {   // not Sendable: the test's thread only
            func curlReceive(body: UnsafeRawBufferPointer, from easy: CurlEasy) -> Bool { false }
        }
        let server = try TestHTTPServer(routes: ["/page": .html("refused")])
        defer { server.stop() }
        let easy = try CurlEasy(url: server.url("/page"))
        easy.receiver = Refuser()
        let failure = try #require(easy.perform())
        #expect(failure.isWriteAbort)
        #expect(!failure.isRetryable)
    }

    @Test func aTimeoutIsRetryableButNotUnreachable() throws {
        let server = try TestHTTPServer(routes: ["/slow": Route(body: "late", delay: 3)])
        defer { server.stop() }
        var request = CurlRequest(url: server.url("/slow"))
        request.totalTimeout = 0.3
        let easy = try CurlEasy(request)
        let failure = try #require(easy.perform())
        #expect(failure.isTimeout)
        #expect(failure.isRetryable)
        #expect(!failure.isUnreachable)
        // libcurl's own detail ("Operation timed out after 301 milliseconds ..."), not the generic sentence.
        #expect(failure.description.contains("milliseconds"), "libcurl's detail says how long it waited: \(failure)")
    }

    /// A user's `http_proxy` must not capture loopback links. The proxy is set with
    /// `CURLOPT_PROXY` (the internal setter: no request sets a proxy), which libcurl treats
    /// exactly as the environment's proxy (the same `NOPROXY` list applies to both); `setenv`
    /// would change the whole test process's environment, and a URLSession request or a child
    /// `piper` started by a concurrent test would then go to the dead proxy.
    @Test func loopbackBypassesAConfiguredProxy() throws {
        let server = try TestHTTPServer(routes: ["/page": .html("direct")])
        defer { server.stop() }
        let proxy = "http://127.0.0.1:\(try closedPort())"

        let easy = try CurlEasy(url: server.url("/page"))
        try easy.set(CURLOPT_PROXY, proxy)
        let collected = Collected()
        easy.receiver = collected
        #expect(easy.perform() == nil)
        #expect(String(decoding: collected.body, as: UTF8.self) == "direct")

        // The control: without the loopback exception the same request goes to the dead proxy.
        let proxied = try CurlEasy(url: server.url("/page"))
        try proxied.set(CURLOPT_PROXY, proxy)
        try proxied.set(CURLOPT_NOPROXY, "")
        let failure = try #require(proxied.perform())
        #expect(failure.code == CURLE_COULDNT_CONNECT)
    }
}
