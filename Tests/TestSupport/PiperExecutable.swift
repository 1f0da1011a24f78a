import Foundation

/// The one locator of the built `piper` binary: it sits in the build products folder beside
/// the test bundle (`swift build --build-tests` builds both). Tests that run the binary use
/// `PiperExecutable.url`; a missing binary makes their runs fail, never pass.
public enum PiperExecutable {
    public static let url: URL = {
        // PIPER_TEST_BINARY runs the suites against another build (the static release binary).
        if let given = ProcessInfo.processInfo.environment["PIPER_TEST_BINARY"], !given.isEmpty {
            return URL(fileURLWithPath: given)
        }
        var folders: [URL] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            folders.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
        }
        let bundle = Bundle.main.bundleURL
        folders += [bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle,
                    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        folders += folders.map { $0.deletingLastPathComponent() }    // from inside a bundle
        folders.append(packageRoot.appendingPathComponent(".build/debug"))
        for folder in folders {
            let exe = folder.appendingPathComponent("piper")
            if FileManager.default.isExecutableFile(atPath: exe.path) { return exe }
        }
        return (folders.first ?? packageRoot).appendingPathComponent("piper")
    }()

    /// The path, for APIs that take a string.
    public static var path: String { url.path }

    /// Another executable of the package (the crash tests' `piper-checkpoint-agent`): beside
    /// `piper`, else in the debug build folder (when `PIPER_TEST_BINARY` names a release build).
    public static func sibling(_ name: String) -> URL {
        let beside = url.deletingLastPathComponent().appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return packageRoot.appendingPathComponent(".build/debug").appendingPathComponent(name)
    }
}
