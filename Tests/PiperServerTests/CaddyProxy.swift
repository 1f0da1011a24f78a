import Foundation
import PiperTestSupport
import Testing

/// Caddy (Debian's `caddy`) in front of a `piper serve`, as the README's phone section runs it:
/// TLS from Caddy's own internal CA for `name`, on a port of its own, proxying to `upstream`.
/// Its state (the CA's root among it) lives in a folder of its own; nothing is installed into
/// the system's trust store.
final class CaddyProxy {
    let port: Int
    let name: String
    let folder: URL
    private var process: Process?

    static var executable: String? {
        ["/usr/bin/caddy", "/usr/local/bin/caddy"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    convenience init(name: String, upstream: String) throws {
        try self.init(name: name, site: "reverse_proxy \(upstream)")
    }

    /// `site`: the directives of the site block after `tls internal` (a Caddyfile's own
    /// `reverse_proxy` block, say).
    init(name: String, site: String) throws {
        folder = try freshDirectory("caddy")
        port = try closedPort()
        self.name = name
        let config = """
            {
                admin off
                local_certs
                skip_install_trust
                auto_https disable_redirects
                http_port \(try closedPort())
                https_port \(port)
                storage file_system \(folder.appendingPathComponent("data").path)
            }
            \(name):\(port) {
                tls internal
                \(site)
            }
            """
        try config.write(to: folder.appendingPathComponent("Caddyfile"), atomically: true, encoding: .utf8)
        try start()
    }

    /// Runs Caddy (again, after `stop`: the same port, root and certificate) until it answers.
    func start() throws {
        let caddy = try #require(Self.executable, "caddy is not installed (scripts/install-deps installs it)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: caddy)
        process.arguments = ["run", "--config", folder.appendingPathComponent("Caddyfile").path, "--adapter", "caddyfile"]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = folder.path
        environment["XDG_DATA_HOME"] = folder.appendingPathComponent("xdg-data").path
        environment["XDG_CONFIG_HOME"] = folder.appendingPathComponent("xdg-config").path
        process.environment = environment
        let logURL = folder.appendingPathComponent("caddy.log")
        if !FileManager.default.fileExists(atPath: logURL.path) { FileManager.default.createFile(atPath: logURL.path, contents: nil) }
        let log = try FileHandle(forWritingTo: logURL)
        log.seekToEndOfFile()
        process.standardOutput = log
        process.standardError = log
        try process.run()
        self.process = process
        let ready = eventually(within: 30) { (try? self.rootCertificate()) != nil && self.answers() }
        try #require(ready, "caddy did not start: \((try? String(contentsOf: logURL, encoding: .utf8)) ?? "")")
    }

    deinit { stop() }

    func stop() {
        guard let process, process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    var url: String { "https://\(name):\(port)" }

    /// The internal CA's root certificate (PEM), once Caddy has made it.
    func rootCertificate() throws -> URL {
        let root = folder.appendingPathComponent("data/pki/authorities/local/root.crt")
        guard FileManager.default.fileExists(atPath: root.path) else { throw CocoaError(.fileNoSuchFile) }
        return root
    }

    /// True once a TLS request through Caddy, checked against its root, gets any HTTP answer.
    func answers() -> Bool {
        guard let status = status(of: "/healthz") else { return false }
        return status != "000"
    }

    /// The HTTP status a GET of `path` through Caddy gets (curl's `%{http_code}`), nil when curl failed.
    func status(of path: String) -> String? {
        guard let root = try? rootCertificate(),
              let run = try? runProcessCapturing("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", root.path,
                                                                  "--resolve", "\(name):\(port):127.0.0.1", "\(url)\(path)"]),
              run.status == 0 else { return nil }
        return run.stdout
    }

    /// An NSS database (as Chromium on Linux reads from `$HOME/.pki/nssdb`) that trusts Caddy's
    /// root: returns the home folder to give Chromium.
    func chromiumHomeTrustingRoot() throws -> URL {
        let home = folder.appendingPathComponent("chromium-home")
        let database = home.appendingPathComponent(".pki/nssdb")
        try FileManager.default.createDirectory(at: database, withIntermediateDirectories: true)
        let certutil = try #require(["/usr/bin/certutil"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                    "certutil is not installed (libnss3-tools; scripts/install-deps installs it)")
        let made = try runProcessCapturing(certutil, ["-d", "sql:\(database.path)", "-N", "--empty-password"])
        try #require(made.status == 0, "certutil -N: \(made.stderr)")
        let added = try runProcessCapturing(certutil, ["-d", "sql:\(database.path)", "-A", "-t", "C,,", "-n", "piper-test-caddy",
                                                       "-i", try rootCertificate().path])
        try #require(added.status == 0, "certutil -A: \(added.stderr)")
        return home
    }
}
