// swift-tools-version:6.0
// Piper: share a link, it lands where it belongs.
// Layers (see ARCHITECTURE.md and scripts/check-layers):
//   cores    HTML, Readability, Extraction,      Swift + Foundation only
//            PiperCore
//   adapters PiperSystem ← PiperSQLite ← MediaImport ← PiperServer, PiperNet on PiperSystem
//            beside PiperSQLite (+ C shims); each imports only adapters below it
//   CLI      piper                                no C shim, no FoundationNetworking
import PackageDescription

func system(_ name: String, _ pkg: String, _ apt: [String]) -> Target {
    .systemLibrary(name: name, pkgConfig: pkg, providers: [.apt(apt)])
}

let package = Package(
    name: "Piper",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "piper", targets: ["piper"]),
        .library(name: "HTML", targets: ["HTML"]),
        .library(name: "Readability", targets: ["Readability"]),
        .library(name: "Extraction", targets: ["Extraction"]),
        .library(name: "PiperCore", targets: ["PiperCore"]),
    ],
    targets: [
        // C libraries from Debian. Linked: gumbo (the HTML benchmark's baseline only).
        system("CGumbo", "gumbo", ["libgumbo-dev"]),
        // C libraries opened with dlopen on first use (a command that never calls one never maps
        // it, nor its dependencies): the shim's stubs forward through CDynamicLibrary's loader.
        // Headers come from the same Debian -dev packages (scripts/install-deps); nothing links them.
        .target(name: "CDynamicLibrary"),
        .target(name: "CCurl", dependencies: ["CDynamicLibrary"]),
        .target(name: "CSQLite", dependencies: ["CDynamicLibrary"]),
        .target(name: "CPostgres", dependencies: ["CDynamicLibrary"]),
        .target(name: "CArchive", dependencies: ["CDynamicLibrary"]),
        .target(name: "CTagLib", dependencies: ["CDynamicLibrary"]),
        .target(name: "CMicroHTTPD", dependencies: ["CDynamicLibrary"]),
        .target(name: "CQRencode", dependencies: ["CDynamicLibrary"]),
        // Linux calls Swift's Glibc module leaves out (fallocate, renameat2, close_range, spawn close-from).
        .systemLibrary(name: "CSystem"),

        // Cores: Swift standard library and Foundation only.
        .target(name: "HTML", exclude: ["Documentation.md"]),
        .target(name: "Readability", dependencies: ["HTML"], exclude: ["Documentation.md"]),
        .target(name: "PiperCore", exclude: ["Documentation.md"]),
        .target(name: "Extraction", dependencies: ["HTML", "Readability"], exclude: ["Documentation.md"]),
        .target(name: "Posts", dependencies: ["HTML", "PiperCore"]),

        // Adapters. PiperSystem is the plumbing below the others: one libcurl wrapper, one spawner.
        .target(name: "PiperSystem", dependencies: ["CCurl", "CSystem"]),
        .target(name: "PiperSQLite", dependencies: ["PiperSystem", "CSQLite"]),
        .target(name: "PiperNet", dependencies: ["PiperCore", "HTML", "Readability", "Extraction", "Posts", "PiperSystem", "CCurl"]),
        .target(name: "PiperServer", dependencies: ["PiperCore", "HTML", "PiperSQLite", "PiperSystem", "MediaImport", "CMicroHTTPD", "CPostgres", "CQRencode", "CSystem"],
                exclude: ["Web/app"]),   // embedded by scripts/gen-web-assets (WebAssets.swift)
        .target(name: "MediaImport", dependencies: ["PiperCore", "PiperSQLite", "PiperSystem", "CCurl", "CArchive", "CTagLib", "CSystem"]),

        // The command-line tool: presentation only.
        .executableTarget(name: "piper", dependencies: ["PiperCore", "HTML", "Readability", "Extraction", "Posts", "PiperNet", "PiperServer", "MediaImport", "PiperSystem"]),

        // Benchmarks (release builds print their numbers; not tests).
        // The crash tests' agent (stops at an AgentCheckpoint so a test can kill it there).
        .executableTarget(name: "piper-checkpoint-agent", dependencies: ["MediaImport", "PiperCore"], path: "Tests/CheckpointAgent"),
        .executableTarget(name: "piper-bench-html", dependencies: ["HTML", "CGumbo"], path: "Benchmarks/html", exclude: ["README.md"]),
        .executableTarget(name: "piper-bench-readability", dependencies: ["HTML", "Readability"], path: "Benchmarks/readability", exclude: ["README.md"]),
        .executableTarget(name: "piper-bench-extraction", dependencies: ["HTML", "Extraction", "CorpusEval"], path: "Benchmarks/extraction", exclude: ["README.md"]),
        .executableTarget(name: "piper-bench-download", dependencies: ["MediaImport", "PiperCore"], path: "Benchmarks/download", exclude: ["README.md"]),
        .executableTarget(name: "piper-bench-sanitizer", dependencies: ["PiperServer"], path: "Benchmarks/sanitizer", exclude: ["README.md"]),
        .executableTarget(name: "piper-bench-import", dependencies: ["MediaImport", "PiperCore"], path: "Benchmarks/import", exclude: ["README.md"]),

        // The Swift examples the cores' Documentation.md files show, built so they keep compiling
        // (DocumentationExampleTests checks each file's code block equals its example).
        .executableTarget(name: "piper-example-article", dependencies: ["HTML", "Readability", "Extraction"], path: "Examples/article"),
        .executableTarget(name: "piper-example-share-flow", dependencies: ["PiperCore"], path: "Examples/share-flow"),

        // Test support shared by test targets (a real local HTTP server).
        .target(name: "PiperTestSupport", path: "Tests/TestSupport"),
        // The extraction corpora and their metrics, for the benchmark and the ratchet test.
        .target(name: "CorpusEval", dependencies: ["HTML", "Extraction"], path: "Tests/CorpusEval"),

        .testTarget(name: "PiperCoreTests", dependencies: ["PiperCore", "PiperTestSupport"]),
        .testTarget(name: "HTMLTests", dependencies: ["HTML", "PiperTestSupport"], exclude: ["Ratchets", "Fixtures"]),
        .testTarget(name: "ExtractionTests", dependencies: ["Extraction", "CorpusEval", "HTML", "PiperTestSupport"], exclude: ["Ratchets", "Fixtures"]),
        .testTarget(name: "ReadabilityTests", dependencies: ["Readability", "Extraction", "HTML", "PiperTestSupport"], exclude: ["Ratchets", "Fixtures"]),
        .testTarget(name: "PiperSystemTests", dependencies: ["PiperSystem", "PiperTestSupport", "CCurl"]),
        .testTarget(name: "PiperNetTests", dependencies: ["PiperNet", "PiperCore", "Extraction", "CorpusEval", "PiperTestSupport"], exclude: ["Routes"]),
        .testTarget(name: "PiperSQLiteTests", dependencies: ["PiperSQLite", "PiperTestSupport"]),
        .testTarget(name: "PiperServerTests", dependencies: ["PiperServer", "PiperSQLite", "PiperNet", "MediaImport", "PiperTestSupport"], exclude: ["Ratchets", "Fixtures"]),
        .testTarget(name: "PostsTests", dependencies: ["Posts", "HTML", "PiperCore", "PiperTestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "MediaImportTests", dependencies: ["MediaImport", "PiperSQLite", "PiperTestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["piper", "HTML", "PiperTestSupport"], exclude: ["Ratchets", "RoutePages"]),
    ],
    swiftLanguageModes: [.v6]
)
