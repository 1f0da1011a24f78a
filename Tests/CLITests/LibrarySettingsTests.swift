import Foundation
import PiperTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The library's settings through the built binary: where it lives (`--library`,
/// `PIPER_LIBRARY`, `library` in the config file), the modes its files get under a umask or
/// `libraryMode`, and a moved library that keeps its items once the setting points at it.
@Suite(.ownThread) struct LibrarySettingsTests {
    static let sample = PiperBinary.packageRoot.appendingPathComponent("../shared/fixtures/media/sample.mp3").standardizedFileURL

    static func mode(_ path: String) -> Int {
        var info = stat()
        return lstat(path, &info) == 0 ? Int(info.st_mode & 0o7777) : -1
    }

    /// A folder others may traverse (the temporary folder's children are 0755 under 022).
    static func openFolder() throws -> URL {
        let dir = URL(fileURLWithPath: "/tmp").appendingPathComponent("piper-lib-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        chmod(dir.path, 0o755)
        return dir
    }

    static func share(_ home: URL, umask: String, extra: [String] = [], environment: [String: String] = [:]) throws -> PiperBinary.Result {
        let result = try UmaskRun.piper(umask: umask, ["share", "--wait", "--no-clipboard"] + extra + [sample.path], home: home,
                                        environment: environment)
        try #require(result.status == 0, "share failed: \(result.stderr)")
        return result
    }

    @Test func importedUnderUmask022OthersCanRead() throws {
        let home = PiperBinary.freshHome(), root = try Self.openFolder()
        defer { try? FileManager.default.removeItem(at: home); try? FileManager.default.removeItem(at: root) }
        let library = root.appendingPathComponent("media/library")
        try Self.share(home, umask: "022", extra: ["--library", library.path])
        let listed = try PiperBinary.run(["library", "--json", "--library", library.path], home: home)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        let items = try #require(object["items"] as? [[String: Any]])
        let path = try #require(items.first?["path"] as? String)
        #expect(!path.hasPrefix("/"), "catalog paths are relative: \(path)")
        let file = library.appendingPathComponent(path).path
        #expect(Self.mode(file) == 0o644)
        #expect(Self.mode(library.path) == 0o755)
        #expect(Self.mode(library.deletingLastPathComponent().path) == 0o755)
        if getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/su") || FileManager.default.isExecutableFile(atPath: "/bin/su") {
            let su = try UmaskRun.shell("su nobody -s /bin/sh -c 'cat \"$0\"' \"\(file)\" | wc -c")
            #expect(su.trimmingCharacters(in: .whitespacesAndNewlines) == "\((try Data(contentsOf: Self.sample)).count)",
                    "nobody reads the whole file")
        }
        // The state folder's secrets stay private.
        #expect(Self.mode(home.path) == 0o700)
    }

    @Test func libraryModeWinsOverTheUmask() throws {
        let home = PiperBinary.freshHome(), root = try Self.openFolder()
        defer { try? FileManager.default.removeItem(at: home); try? FileManager.default.removeItem(at: root) }
        let library = root.appendingPathComponent("lib")
        #expect(try PiperBinary.run(["config", "set", "library", library.path], home: home).status == 0)
        #expect(try PiperBinary.run(["config", "set", "libraryMode", "0640"], home: home).status == 0)
        try Self.share(home, umask: "077", extra: ["--into", "Shows/Weekly"])
        let file = library.appendingPathComponent("Shows/Weekly/sample.mp3").path
        #expect(Self.mode(file) == 0o640)
        #expect(Self.mode(library.appendingPathComponent("Shows/Weekly").path) == 0o750)
        #expect(Self.mode(library.path) == 0o750)
        let bad = try PiperBinary.run(["config", "set", "libraryMode", "999"], home: home)
        #expect(bad.status == 64 && bad.stderr.contains("libraryMode"), "\(bad.stderr)")
    }

    @Test func theSettingsAreShownAndResolvedInOrder() throws {
        let home = PiperBinary.freshHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let path = try PiperBinary.run(["library", "--path"], home: home)
        #expect(path.stdout == home.appendingPathComponent("library").path + "\n")
        #expect(try PiperBinary.run(["config", "set", "library", "/srv/from-config"], home: home).status == 0)
        #expect(try PiperBinary.run(["library", "--path"], home: home).stdout == "/srv/from-config\n")
        #expect(try PiperBinary.run(["library", "--path"], home: home, environment: ["PIPER_LIBRARY": "/srv/from-env"]).stdout == "/srv/from-env\n")
        #expect(try PiperBinary.run(["library", "--path", "--library", "/srv/flag"], home: home,
                                    environment: ["PIPER_LIBRARY": "/srv/from-env"]).stdout == "/srv/flag\n")
        let shown = try PiperBinary.run(["config", "--json"], home: home, environment: ["PIPER_LIBRARY": "/srv/from-env"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        let settings = try #require(report["settings"] as? [String: [String: Any]])
        #expect(settings["library"]?["value"] as? String == "/srv/from-env")
        #expect(settings["library"]?["source"] as? String == "PIPER_LIBRARY")
        #expect(settings["libraryMode"]?["source"] as? String == "umask")
        #expect(report["libraryFolder"] as? String == "/srv/from-env")
        let text = try PiperBinary.run(["config", "--library", "/srv/flag"], home: home)
        #expect(text.stdout.contains("library folder:    /srv/flag  (from --library)"), "\(text.stdout)")
        let relative = try PiperBinary.run(["library", "--library", "relative/dir"], home: home)
        #expect(relative.status == 64 && relative.stderr.contains("absolute path"), "\(relative.stderr)")
    }

    @Test func aMovedLibraryKeepsItsItems() throws {
        let home = PiperBinary.freshHome(), root = try Self.openFolder()
        defer { try? FileManager.default.removeItem(at: home); try? FileManager.default.removeItem(at: root) }
        let old = root.appendingPathComponent("old"), new = root.appendingPathComponent("moved/here")
        #expect(try PiperBinary.run(["config", "set", "library", old.path], home: home).status == 0)
        try Self.share(home, umask: "022", extra: ["--into", "Book"])
        try FileManager.default.createDirectory(at: new.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: old, to: new)
        #expect(try PiperBinary.run(["config", "set", "library", new.path], home: home).status == 0)
        let listed = try PiperBinary.run(["library", "--json"], home: home)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        let items = try #require(object["items"] as? [[String: Any]])
        #expect(items.compactMap { $0["path"] as? String } == ["Book/sample.mp3"])
        #expect(try Data(contentsOf: new.appendingPathComponent("Book/sample.mp3")) == Data(contentsOf: Self.sample))
        // Sharing the same file again is a duplicate of the moved item, not a second copy.
        let again = try Self.share(home, umask: "022", extra: ["--again"])
        #expect(again.stdout.contains("Book/sample.mp3") || again.stderr.contains("Book/sample.mp3"), "\(again.stdout) \(again.stderr)")
        let removed = try PiperBinary.run(["library", "rm", "Book/sample.mp3"], home: home)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: new.appendingPathComponent("Book/sample.mp3").path))
    }
}

/// Runs the binary under a given umask through /bin/sh.
enum UmaskRun {
    static func piper(umask: String, _ arguments: [String], home: URL, environment: [String: String] = [:]) throws -> PiperBinary.Result {
        let quoted = ([PiperBinary.url.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "umask \(umask) && exec \(quoted.joined(separator: " "))"]
        var env = ProcessInfo.processInfo.environment
        env["PIPER_HOME"] = home.path
        env.removeValue(forKey: "PIPER_BACKEND_URL")
        env.removeValue(forKey: "PIPER_LIBRARY")
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        nonisolated(unsafe) var outData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return PiperBinary.Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                                  stderr: String(decoding: errData, as: UTF8.self))
    }

    static func shell(_ command: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
