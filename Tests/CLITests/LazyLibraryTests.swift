import Foundation
import PiperTestSupport
import Testing

/// The C libraries behind the adapters are opened on first use (`CDynamicLibrary`): a command
/// that needs none maps none, and one whose library is missing says which and exits non-zero.
/// A missing library is real here: PIPER_LIBRARY_<NAME> points the loader at a file that does
/// not exist, as on a machine without the package.
@Suite(.ownThread, .timeLimit(.minutes(1))) struct LazyLibraryTests {
    static let lazilyLoaded = ["libcurl-gnutls.so", "libsqlite3.so", "libpq.so", "libarchive.so", "libtag_c.so",
                               "libmicrohttpd.so", "libqrencode.so"]

    /// The dynamic loader's own list of the objects it maps (LD_DEBUG=files) for `--version`.
    @Test func versionMapsNoneOfTheLazilyLoadedLibraries() throws {
        let result = try PiperBinary.run(["--version"], environment: ["LD_DEBUG": "files"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("file="), "LD_DEBUG=files listed nothing: \(result.stderr.prefix(300))")
        for library in Self.lazilyLoaded {
            #expect(!result.stderr.contains(library), "--version mapped \(library)")
        }
    }

    /// The same list for `extract` of a local file: the parser and extractor need no C library.
    @Test func extractingAFileMapsNoneOfThem() throws {
        let page = PiperBinary.packageRoot.appendingPathComponent("../shared/corpus/readability/001/source.html")
            .standardizedFileURL.path
        let result = try PiperBinary.run(["extract", page], environment: ["LD_DEBUG": "files"])
        #expect(result.status == 0)
        for library in Self.lazilyLoaded {
            #expect(!result.stderr.contains(library), "extract mapped \(library)")
        }
    }

    @Test func aMissingLibcurlIsNamedWhenALinkIsLoaded() throws {
        let site = try TestHTTPServer(routes: ["/page": .html("<html><body><p>Hello there.</p></body></html>")])
        defer { site.stop() }
        let missing = "/nonexistent/libcurl.so.4"
        let result = try PiperBinary.run(["extract", site.url("/page").absoluteString],
                                         environment: ["PIPER_LIBRARY_CURL": missing])
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("libcurl could not be loaded from \(missing) (set by PIPER_LIBRARY_CURL)"),
                "stderr: \(result.stderr)")
        #expect(try site.requests().isEmpty, "a request went out without libcurl")
    }

    @Test func aMissingLibmicrohttpdStopsServeWithItsName() throws {
        let home = PiperBinary.freshHome()
        let result = try PiperBinary.run(["serve", "--port", "0", "--db", home.appendingPathComponent("s.sqlite").path],
                                         home: home, environment: ["PIPER_LIBRARY_MICROHTTPD": "libpiper-missing.so.12"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("Cannot start the HTTP server: libmicrohttpd could not be loaded from libpiper-missing.so.12"),
                "stderr: \(result.stderr)")
    }

    @Test func aMissingLibsqliteStopsServeWithItsName() throws {
        let home = PiperBinary.freshHome()
        let result = try PiperBinary.run(["serve", "--port", "0", "--db", home.appendingPathComponent("s.sqlite").path],
                                         home: home, environment: ["PIPER_LIBRARY_SQLITE": "/nonexistent/libsqlite3.so.0"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("libsqlite3 could not be loaded from /nonexistent/libsqlite3.so.0"), "stderr: \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("s.sqlite").path))
    }
}
