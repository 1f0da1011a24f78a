import Foundation
import PiperTestSupport
import Testing
@testable import PiperCore

/// The Piper spec's config table.
@Suite(.ownThread) struct ConfigTests {
    @Test func defaultBackendIsValidHTTPS() throws {
        let config = try Config.load(environment: ["PIPER_HOME": "/nonexistent-piper-home-\(UUID().uuidString)"])
        #expect(config.backendBaseURL.scheme == "https")
        #expect(config.backendBaseURL.host?.isEmpty == false)
        #expect(config.backendSource == .builtIn)
        #expect(try Config.validateBackendURL(Config.defaultBackendBaseURL.absoluteString, from: .flag) == Config.defaultBackendBaseURL)
    }

    @Test func backendURLHasNoTrailingSlash() throws {
        #expect(!Config.defaultBackendBaseURL.absoluteString.hasSuffix("/"))
        let config = try Config.load(backendFlag: "http://127.0.0.1:8080/", environment: ["PIPER_HOME": "/tmp/x"])
        #expect(config.backendBaseURL.absoluteString == "http://127.0.0.1:8080")
        #expect(config.backendBaseURL.appendingPathComponent("save").absoluteString == "http://127.0.0.1:8080/save")
    }
}
