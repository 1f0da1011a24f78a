import Foundation
import PiperTestSupport
import Testing
@testable import PiperCore

@Suite(.ownThread) struct ConfigResolutionTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("piper-config-\(UUID().uuidString)").path

    @Test func defaultBackendIsAValidHTTPSURL() throws {
        let url = Config.defaultBackendBaseURL
        #expect(url.scheme == "https")
        #expect(url.host?.isEmpty == false)
        // The default passes the same validation as any override.
        #expect(try Config.validateBackendURL(url.absoluteString, from: .builtIn) == url)
    }

    @Test func defaultBackendHasNoTrailingSlash() {
        #expect(!Config.defaultBackendBaseURL.absoluteString.hasSuffix("/"))
    }

    @Test func builtInDefaultWhenNothingIsSet() throws {
        let config = try Config.load(environment: ["PIPER_HOME": home])
        #expect(config.backendBaseURL == Config.defaultBackendBaseURL)
        #expect(config.backendSource == .builtIn)
    }

    @Test func flagBeatsEnvironmentBeatsConfigFile() throws {
        let state = StateFolder(url: URL(fileURLWithPath: home))
        try state.ensure()
        try StateFolder.writeAtomically(Data(#"{"backendURL": "https://file.example.org/"}"#.utf8), to: state.configFile)
        let env = ["PIPER_HOME": home, "PIPER_BACKEND_URL": "https://env.example.org"]

        let fromFlag = try Config.load(backendFlag: "http://127.0.0.1:8080/", environment: env)
        #expect(fromFlag.backendBaseURL.absoluteString == "http://127.0.0.1:8080")
        #expect(fromFlag.backendSource == .flag)

        let fromEnv = try Config.load(environment: env)
        #expect(fromEnv.backendBaseURL.absoluteString == "https://env.example.org")
        #expect(fromEnv.backendSource == .environment)

        let fromFile = try Config.load(environment: ["PIPER_HOME": home])
        #expect(fromFile.backendBaseURL.absoluteString == "https://file.example.org")
        #expect(fromFile.backendSource == .configFile)
    }

    @Test(arguments: [
        "http://example.com",            // plain http off loopback
        "ftp://127.0.0.1",               // wrong scheme
        "not a url",
        "https://",                      // no host
        "https://example.com/?x=1",      // query
        "/relative/path",
    ])
    func invalidOverridesAreRejected(_ value: String) {
        #expect(throws: ConfigError.self) { try Config.validateBackendURL(value, from: .flag) }
        do {
            _ = try Config.validateBackendURL(value, from: .flag)
        } catch let error as ConfigError {
            #expect(error.category == .usage)
            #expect(error.description.contains(value))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test(arguments: [
        ("http://localhost:9000/", "http://localhost:9000"),
        ("http://127.0.0.1:8080//", "http://127.0.0.1:8080"),
        ("http://[::1]:8080", "http://[::1]:8080"),
        ("https://backend.example.org/piper/", "https://backend.example.org/piper"),
    ])
    func validOverridesAreNormalised(_ value: String, _ expected: String) throws {
        #expect(try Config.validateBackendURL(value, from: .environment).absoluteString == expected)
    }

    @Test func malformedConfigFileIsAClearError() throws {
        let state = StateFolder(url: URL(fileURLWithPath: home))
        try state.ensure()
        try StateFolder.writeAtomically(Data("{ nope".utf8), to: state.configFile)
        #expect(throws: ConfigError.self) { try Config.load(environment: ["PIPER_HOME": home]) }
    }
}
