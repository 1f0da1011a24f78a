import Foundation
import PiperTestSupport
import Testing

/// `piper extract --tuning FILE`: the piper mode's thresholds overridden from a file for a
/// development run, without a rebuild; a bad file is a usage error naming what is wrong.
@Suite(.ownThread) struct ExtractTuningTests {
    static let prose = "The council voted on Tuesday to keep the library open for another year, after a long debate about its costs. "
        + "The mayor said the building would be repaired in the spring, and that the reading room would stay open late on Thursdays."
    static let page = Data("""
        <html><head><title>Library stays open</title></head><body><article><h1>Library stays open</h1>
        <p>\(prose)</p><p>\(prose)</p><p>Share this story</p></article></body></html>
        """.utf8)

    static func file(_ json: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tuning-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: url)
        return url
    }

    @Test func overridesChangeWhatThePiperModeKeeps() throws {
        let standard = try PiperBinary.run(["extract", "-"], stdin: Self.page)
        #expect(standard.status == 0, "\(standard.stderr)")
        #expect(!standard.stdout.contains("Share this story"))
        let file = try Self.file(#"{"trailingBlockKept": 0}"#)
        defer { try? FileManager.default.removeItem(at: file) }
        let tuned = try PiperBinary.run(["extract", "--tuning", file.path, "-"], stdin: Self.page)
        #expect(tuned.status == 0, "\(tuned.stderr)")
        #expect(tuned.stdout.contains("Share this story"))
        // No overrides: the standard output, byte for byte.
        let empty = try Self.file("{}")
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(try PiperBinary.run(["extract", "--tuning", empty.path, "-"], stdin: Self.page).stdout == standard.stdout)
    }

    @Test func anUnknownFieldIsAUsageErrorNamingIt() throws {
        let file = try Self.file(#"{"trailingBlockKep": 0}"#)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try PiperBinary.run(["extract", "--tuning", file.path, "-"], stdin: Self.page)
        #expect(r.status == 64)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("unknown tuning field 'trailingBlockKep'"), "\(r.stderr)")
        let missing = try PiperBinary.run(["extract", "--tuning", "/nonexistent/tuning.json", "-"], stdin: Self.page)
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("--tuning: cannot read '/nonexistent/tuning.json'"), "\(missing.stderr)")
    }

    @Test func theHelpSaysItIsForDevelopmentOnly() throws {
        let r = try PiperBinary.run(["extract", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("--tuning <FILE>"))
        #expect(r.stdout.contains("Development only"))
    }
}
