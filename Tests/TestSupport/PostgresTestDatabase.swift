import Foundation

/// The PostgreSQL the tests share: `PIPER_TEST_POSTGRES_URL` (`scripts/start-postgres` prints
/// one). Tests that need it carry `.enabled(if: PostgresTestDatabase.isConfigured)`, so without
/// it they show as skipped, never as passed. Under CI (`CI` set) or with
/// `PIPER_REQUIRE_POSTGRES` set, `requiredDatabaseIsConfigured` fails instead: a run that must
/// test PostgreSQL cannot skip it silently.
public enum PostgresTestDatabase {
    /// The connection URL, when configured.
    public static var configuredURL: String? {
        let url = ProcessInfo.processInfo.environment["PIPER_TEST_POSTGRES_URL"] ?? ""
        return url.isEmpty ? nil : url
    }

    public static var isConfigured: Bool { configuredURL != nil }

    /// True under CI or with `PIPER_REQUIRE_POSTGRES` set (`scripts/test` sets it).
    public static var isRequired: Bool {
        let env = ProcessInfo.processInfo.environment
        return env["CI"] != nil || !(env["PIPER_REQUIRE_POSTGRES"] ?? "").isEmpty
    }

    /// The connection URL; throws when none is configured (call it from enabled tests only).
    public static func url() throws -> String {
        guard let url = configuredURL else { throw NotConfigured() }
        return url
    }

    /// Thrown by `url()` without `PIPER_TEST_POSTGRES_URL`.
    public struct NotConfigured: Error, CustomStringConvertible {
        public var description: String { "PIPER_TEST_POSTGRES_URL is not set; run scripts/start-postgres" }
    }
}
