import PiperCore
import PiperTestSupport
import Testing

/// The SSRF policy's address arithmetic: parsing, ranges, what is refused and what opens it.
@Suite(.ownThread)
struct FetchPolicyTests {
    @Test(arguments: [
        ("127.0.0.1", "loopback"), ("::1", "loopback"), ("10.1.2.3", "private"), ("172.31.0.1", "private"),
        ("192.168.0.10", "private"), ("169.254.169.254", "cloud metadata"), ("169.254.1.1", "link-local"),
        ("100.100.0.1", "shared (CGNAT)"), ("224.0.0.1", "multicast"), ("ff02::1", "multicast"), ("fd12::1", "private"),
        ("fe80::1%eth0", "link-local"), ("::ffff:127.0.0.1", "loopback"), ("::ffff:10.0.0.1", "private"), ("0.0.0.0", "unspecified"),
    ])
    func refused(_ text: String, _ kind: String) throws {
        let address = try #require(NetworkAddress(text))
        #expect(FetchPolicy.refusedKind(of: address) == kind)
        #expect(FetchPolicy().refusal(of: address)?.contains("a \(kind) address") == true)
    }

    @Test(arguments: ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "172.32.0.1", "100.128.0.1", "::ffff:8.8.8.8"])
    func publicAddressesAreAllowed(_ text: String) throws {
        #expect(FetchPolicy().refusal(of: try #require(NetworkAddress(text))) == nil)
    }

    @Test func onlyCanonicalLiteralsParse() {
        #expect(NetworkAddress("2130706433") == nil)
        #expect(NetworkAddress("0x7f000001") == nil)
        #expect(NetworkAddress("127.1") == nil)
        #expect(NetworkAddress("1::2::3") == nil)
        #expect(NetworkAddress("[2001:db8::1]")?.description == "2001:db8:0:0:0:0:0:1")
    }

    @Test func allowHostOpensRangesAndNames() throws {
        let policy = FetchPolicy(allowing: ["192.168.1.0/24", "127.0.0.1", "NAS.lan."])
        #expect(policy.refusal(of: try #require(NetworkAddress("192.168.1.7"))) == nil)
        #expect(policy.refusal(of: try #require(NetworkAddress("192.168.2.7"))) != nil)
        #expect(policy.refusal(of: try #require(NetworkAddress("::ffff:127.0.0.1"))) == nil)
        #expect(policy.refusal(of: try #require(NetworkAddress("10.0.0.5")), host: "nas.lan") == nil)
        #expect(AddressRange("10.0.0.0/33") == nil)
    }
}
