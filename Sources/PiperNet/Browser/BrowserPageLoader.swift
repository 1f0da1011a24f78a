#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PiperCore

/// Loads a page in headless Chromium over `--remote-debugging-pipe`: a throwaway profile, the
/// user's cookies through `Network.setCookies`, a desktop User-Agent; navigate, wait for the load
/// event plus a settle period, retry while the text is still short, and take
/// `document.documentElement.outerHTML`. The browser is killed on every path.
public struct BrowserPageLoader: PageLoader {
    package let executable: String
    /// Extra flags (`PIPER_CHROMIUM_FLAGS`), e.g. `--host-resolver-rules=...` in tests.
    package var extraFlags: [String] = []
    package var profileParent = FileManager.default.temporaryDirectory
    package var environment: [String: String] = ProcessInfo.processInfo.environment
    package var userAgent = HTTPPageLoader.desktopUserAgent
    package var timeout: TimeInterval = 30
    /// Time after the load event for scripts to render.
    package var settle: TimeInterval = 0.25
    /// Below this many characters of body text the page is read again, a few times.
    package var minimumTextLength = 500
    package var retries = 4
    package var retryInterval: TimeInterval = 0.7

    package init(executable: String) {
        self.executable = executable
    }

    /// The Chromium to use: `PIPER_CHROMIUM` if set (a path; if it doesn't exist, there is no
    /// browser), else `chromium`, `chromium-browser` or `google-chrome` on `PATH`.
    package static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let fm = FileManager.default
        if let explicit = environment["PIPER_CHROMIUM"], !explicit.isEmpty {
            return fm.isExecutableFile(atPath: explicit) ? explicit : nil
        }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for dir in path.split(separator: ":") where fm.isExecutableFile(atPath: "\(dir)/\(name)") {
                return "\(dir)/\(name)"
            }
        }
        return nil
    }

    /// A loader for the Chromium that `find` picks, with `PIPER_CHROMIUM_FLAGS` applied; nil when none.
    public static func system(environment: [String: String] = ProcessInfo.processInfo.environment) -> BrowserPageLoader? {
        guard let path = find(environment: environment) else { return nil }
        var loader = BrowserPageLoader(executable: path)
        loader.environment = environment
        loader.extraFlags = splitFlags(environment["PIPER_CHROMIUM_FLAGS"] ?? "")
        return loader
    }

    /// Splits a flag string at the spaces before each `--`, so a value may hold spaces:
    /// `--a=1 --rules=MAP x 127.0.0.1` → ["--a=1", "--rules=MAP x 127.0.0.1"].
    static func splitFlags(_ text: String) -> [String] {
        var flags: [String] = []
        for word in text.split(separator: " ") {
            if word.hasPrefix("--") || flags.isEmpty { flags.append(String(word)) } else { flags[flags.count - 1] += " \(word)" }
        }
        return flags
    }

    var arguments: [String] {
        var args = [
            "--headless", "--remote-debugging-pipe", "--user-agent=\(userAgent)",
            "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-extensions", "--disable-default-apps",
            "--disable-features=Translate,OptimizationHints,MediaRouter", "--metrics-recording-only",
            "--mute-audio", "--disable-gpu", "--hide-scrollbars", "--disable-dev-shm-usage",
        ]
        if geteuid() == 0 { args.append("--no-sandbox") }
        return args + extraFlags + ["about:blank"]
    }

    /// Loads `url` in a headless Chromium of its own (ended on return) with `cookies` set, within
    /// `timeout`, and returns the page as rendered: for pages that build their text in script.
    public func load(_ url: URL, cookies: [Cookie]) throws -> LoadedPage {
        let deadline = Date().addingTimeInterval(timeout)
        let process: ChromiumProcess
        do {
            process = try ChromiumProcess(executable: executable,
                                          arguments: arguments, profileParent: profileParent,
                                          environment: environment)
        } catch {
            throw LoadError.browserFailed("\(error)")
        }
        defer { process.terminate() }
        let session = BrowserSession(cdp: CDPConnection(process: process), loader: self, deadline: deadline)
        do {
            let page = try session.open(url, cookies: cookies)
            session.close()
            process.terminate(grace: 0.5)
            return page
        } catch let error as LoadError {
            throw error
        } catch BrowserFailure.timedOut {
            throw LoadError.timedOut(url, seconds: Int(timeout))
        } catch BrowserFailure.crashed {
            throw LoadError.browserFailed(BrowserFailure.crashed.description)
        } catch {
            let tail = process.logTail().split(separator: "\n").last.map { " (\($0))" } ?? ""
            throw LoadError.browserFailed("\(error)\(tail)")
        }
    }
}
