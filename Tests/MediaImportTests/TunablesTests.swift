import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import MediaImport

/// The agent's and downloader's numbers: one table (`Tunables.all`), set in `config.json`,
/// overridden by the environment, refused out of bounds.
@Suite(.ownThread) struct TunablesTests {
    /// Each row's default is the default the settings types have: setting every variable to the
    /// table's default changes nothing.
    @Test func theTablesDefaultsAreTheSettingsDefaults() {
        var environment: [String: String] = [:]
        for tunable in Tunables.all { environment[tunable.environment] = Tunable.text(tunable.defaultValue) }
        let values = TunableValues(environment: environment)
        #expect(values.notices.isEmpty)
        #expect(values.values.count == Tunables.all.count)
        #expect(AgentSettings.from(values) == AgentSettings())
    }

    /// Every row reaches its setting: a value other than the default changes the settings.
    @Test func everyRowReachesItsSetting() {
        for tunable in Tunables.all {
            let other = tunable.defaultValue == tunable.range.upperBound ? tunable.range.lowerBound : min(tunable.defaultValue + 1, tunable.range.upperBound)
            let values = TunableValues(environment: [tunable.environment: Tunable.text(other)])
            #expect(values.notices.isEmpty, "\(tunable.key)")
            #expect(AgentSettings.from(values) != AgentSettings(), "\(tunable.key) = \(other) changed nothing")
        }
    }

    @Test func theConfigFileSetsAndTheEnvironmentWins() throws {
        let folder = try TemporaryFolder("tunables")
        let file = folder.home.appendingPathComponent("config.json")
        var config = ConfigFile()
        try config.set("agent.concurrency", to: "5", in: file)
        try config.set("download.attempts", to: "2", in: file)
        try config.set("download.retryBaseMs", to: "12.5", in: file)
        let written = try String(contentsOf: file, encoding: .utf8)
        #expect(written.contains("\"agent.concurrency\" : 5"))
        #expect(written.contains("\"download.retryBaseMs\" : 12.5"))

        let environment = ["PIPER_HOME": folder.home.path, "PIPER_DOWNLOAD_ATTEMPTS": "3"]
        let values = TunableValues.resolve(environment: environment)
        let settings = AgentSettings.from(values)
        #expect(settings.concurrency == 5)
        #expect(settings.download.attempts == 3)
        #expect(settings.download.retryBaseDelay == 0.0125)
        #expect(values.sources["agent.concurrency"] == "config.json")
        #expect(values.sources["download.attempts"] == "PIPER_DOWNLOAD_ATTEMPTS")
    }

    @Test func outOfBoundsValuesAreRefusedWithTheReason() throws {
        let folder = try TemporaryFolder("tunables-bad")
        let file = folder.home.appendingPathComponent("config.json")
        var config = ConfigFile()
        #expect(throws: ConfigError.invalidValue("agent.concurrency must be between 1 and 32, not '0'")) {
            try config.set("agent.concurrency", to: "0", in: file)
        }
        #expect(throws: ConfigError.invalidValue("download.attempts takes a whole number, not '2.5'")) {
            try config.set("download.attempts", to: "2.5", in: file)
        }
        #expect(!FileManager.default.fileExists(atPath: file.path), "nothing is written for a refused value")

        // A file edited by hand, and a variable, out of bounds: ignored, each with a warning.
        try Data(#"{"agent.concurrency": 99, "download.minRate": "fast"}"#.utf8).write(to: file)
        let values = TunableValues.resolve(environment: ["PIPER_HOME": folder.home.path, "PIPER_AGENT_POLL_MS": "1"])
        #expect(values.values.isEmpty)
        #expect(values.notices.contains("Warning: PIPER_AGENT_POLL_MS: agent.pollMs must be between 10 and 600000, not '1'; it is ignored."))
        #expect(values.notices.contains("Warning: config.json: agent.concurrency must be between 1 and 32, not '99'; it is ignored."))
        #expect(AgentSettings.from(values) == AgentSettings())
        let read = try #require(try ConfigFile.read(file))
        #expect(read.warnings.contains { $0.contains("download.minRate") && $0.contains("must be a number") })
    }
}
