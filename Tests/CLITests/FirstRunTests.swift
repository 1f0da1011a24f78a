import Foundation
import PiperTestSupport
import Testing

/// A newcomer's first runs, on the built binary: each message by exit status and text.
@Suite(.ownThread) struct FirstRunTests {
    @Test func shareWithNoBackendSaysWhatToDo() throws {
        let article = try String(contentsOf: PiperBinary.packageRoot.appendingPathComponent("samples/article.html"), encoding: .utf8)
        let site = try TestHTTPServer(routes: ["/post": .html(article)])
        defer { site.stop() }
        let r = try PiperBinary.run(["share", "--no-clipboard", site.url("/post").absoluteString])
        #expect(r.status == 78, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("No backend is configured"))
        #expect(r.stderr.contains("piper serve") && r.stderr.contains("--backend"))
    }

    @Test func xLinkWithoutCookiesKeepsTheSpecMessageAndAddsAHint() throws {
        let r = try PiperBinary.run(["share", "--no-clipboard", "https://x.com/someone/status/1"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("Open Piper to connect your X account\nRun: piper login --cookies cookies.txt"))
    }

    @Test func bareAndMistypedCommands() throws {
        let bare = try PiperBinary.run([])
        #expect(bare.status == 64 && bare.stdout.isEmpty)
        #expect(bare.stderr.contains("SUBCOMMANDS:"))
        let typo = try PiperBinary.run(["shar"])
        #expect(typo.status == 64)
        #expect(typo.stderr.contains("Did you mean 'share'?"))
        let option = try PiperBinary.run(["share", "--jsn", "x"])
        #expect(option.status == 64)
        #expect(option.stderr.contains("Unknown option '--jsn'. Did you mean '--json'?"))
    }

    @Test func configSetUnknownKeyAndPaths() throws {
        let home = PiperBinary.freshHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let set = try PiperBinary.run(["config", "set", "backend", "http://127.0.0.1:9"], home: home)
        #expect(set.status == 0, "stderr: \(set.stderr)")
        let shown = try PiperBinary.run(["config", "--json"], home: home)
        #expect(shown.stdout.contains(#""backendURL":"http://127.0.0.1:9""#))
        #expect(shown.stdout.contains(#""libraryFolder":"\#(home.path)/library""#))
        #expect(try PiperBinary.run(["config", "path"], home: home).stdout == home.appendingPathComponent("config.json").path + "\n")
        #expect(try PiperBinary.run(["config", "unset", "backend"], home: home).status == 0)
        #expect(try PiperBinary.run(["config", "--json"], home: home).stdout.contains(#""backendSource":"none""#))

        try Data(#"{"backendUrl": "http://127.0.0.1:9"}"#.utf8).write(to: home.appendingPathComponent("config.json"))
        let bad = try PiperBinary.run(["config"], home: home)
        #expect(bad.status == 0, "an unknown key is a warning, not a failure")
        #expect(bad.stderr.contains("Warning: Unknown key 'backendUrl'") && bad.stderr.contains("Did you mean 'backendURL'?"), "\(bad.stderr)")
        let share = try PiperBinary.run(["share", "https://example.org/post"], home: home)
        #expect(share.stderr.contains("Did you mean 'backendURL'?"), "every command that reads the file says so: \(share.stderr)")
    }

    @Test func xdgConfigHomeWithTheOldFileStillRead() throws {
        let root = PiperBinary.freshHome()
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("data/piper")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try Data(#"{"backendURL": "http://127.0.0.1:7"}"#.utf8).write(to: data.appendingPathComponent("config.json"))
        let env = ["PIPER_HOME": "", "XDG_DATA_HOME": root.appendingPathComponent("data").path,
                   "XDG_CONFIG_HOME": root.appendingPathComponent("config").path]
        let old = try PiperBinary.run(["config", "--json"], environment: env)
        #expect(old.stdout.contains(#""backendURL":"http://127.0.0.1:7""#))
        #expect(old.stderr.contains("move it to \(root.path)/config/piper/config.json"))
        #expect(try PiperBinary.run(["config", "set", "backend", "http://127.0.0.1:8"], environment: env).status == 0)
        let new = try PiperBinary.run(["config", "--json"], environment: env)
        #expect(new.stdout.contains(#""backendURL":"http://127.0.0.1:8""#) && new.stderr.isEmpty)
    }

    @Test func loginMessages() throws {
        let dir = PiperBinary.freshHome()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = try PiperBinary.run(["login", "--cookies", dir.appendingPathComponent("nope.txt").path])
        #expect(missing.status == 65 && missing.stderr.contains("There is no cookies file"))
        let binary = dir.appendingPathComponent("cookies.bin")
        try Data([0xFF, 0xFE, 0x00, 0xC3]).write(to: binary)
        #expect(try PiperBinary.run(["login", "--cookies", binary.path]).stderr.contains("not UTF-8 text"))
        let noCSRF = dir.appendingPathComponent("cookies.txt")
        try ".x.com\tTRUE\t/\tTRUE\t1900000000\tauth_token\tsecret\n".write(to: noCSRF, atomically: true, encoding: .utf8)
        let refused = try PiperBinary.run(["login", "--cookies", noCSRF.path])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("no ct0 cookie; X needs both auth_token and ct0"))
    }

    @Test func serveNamesTheDatabaseAndTheTakenPort() throws {
        let db = try PiperBinary.run(["serve", "--db", "/proc/nope/x.sqlite"])
        #expect(db.status == 1)
        #expect(db.stderr.contains("Cannot open the database /proc/nope/x.sqlite"))
        let taken = try TestHTTPServer(routes: [:])
        defer { taken.stop() }
        let busy = try PiperBinary.run(["serve", "--port", "\(taken.port)"])
        #expect(busy.status == 69)
        #expect(busy.stderr == "Error: Port \(taken.port) on 127.0.0.1 is already in use: stop the program using it, "
                + "or pick another with --port (0 picks a free one).\n")
    }

    /// Needs root, to drop to `nobody` with setpriv (CI runs as root).
    @Test(.enabled(if: getuid() == 0)) func unwritableStateFolderIsASentence() throws {
        let parent = PiperBinary.freshHome()
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o500])
        defer { try? FileManager.default.removeItem(at: parent) }
        let cookies = parent.deletingLastPathComponent().appendingPathComponent("piper-cookies-\(UUID().uuidString).txt")
        try ".x.com\tTRUE\t/\tTRUE\t1900000000\tauth_token\ta\n.x.com\tTRUE\t/\tTRUE\t1900000000\tct0\tb\n"
            .write(to: cookies, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: cookies.path)
        defer { try? FileManager.default.removeItem(at: cookies) }
        // runProcess keeps stdout only: the shell folds stderr into it.
        let command = "exec setpriv --reuid=nobody --regid=nogroup --clear-groups '\(PiperBinary.url.path)' login --cookies '\(cookies.path)' 2>&1"
        let r = try runProcess("/bin/sh", ["-c", command],
                               environment: ["PIPER_HOME": parent.appendingPathComponent("piper").path, "PATH": "/usr/bin:/bin"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("Cannot create the folder \(parent.path)/piper: permission denied"))
        #expect(!r.stdout.contains("NSCocoaErrorDomain"))
    }
}
