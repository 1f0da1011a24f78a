#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PiperCore

/// One long-lived headless Chromium for a server's shares: started on the first page that
/// needs it, reused by every share after (each load a tab of its own in a browser context of
/// its own, closed after), started again when it has died, at most `maxTabs` pages at once.
/// A share waits at most `tabWait` for a tab, then fails with "the server's browser is busy";
/// its own `timeout` starts once it has one. A browser that dies during a load fails that load
/// with the reason, and so does a tab whose renderer crashed (at once, not at the deadline);
/// the next load starts a new browser. Its size is bounded by `BrowserLimits`.
///
/// `@unchecked Sendable`: `process`, `cdp` and `starts` are guarded by `lock`; `tabs` is a
/// semaphore; the connection serializes its own use.
public final class BrowserPool: PageLoader, @unchecked Sendable {
    /// The browser's settings: its executable, flags (the guarded proxy's), timeouts.
    public let loader: BrowserPageLoader
    /// Pages loaded at once.
    public let maxTabs: Int
    /// How long a load waits for a free tab before it fails with "the server's browser is busy".
    public let tabWait: TimeInterval
    /// How large the browser may grow (nil: as Chromium pleases).
    public let limits: BrowserLimits?
    /// How the last browser started was bounded in memory, or why it was not, in a sentence.
    public var memoryCap: String { lock.withLock { capNote } }
    private var capNote = "no browser started yet"
    private let tabs: DispatchSemaphore
    private let lock = NSLock()
    private var process: ChromiumProcess?
    private var cdp: CDPConnection?
    private var startCount = 0
    /// Loads under way, and browsers that died under them: a dead browser's pipe is closed
    /// only once no load can be reading it.
    private var inFlight = 0
    private var dead: [ChromiumProcess] = []

    /// The default number of pages loaded at once.
    public static let defaultTabs = 4
    /// The default wait for a tab: a few seconds, short beside a share's own deadline (30 s).
    public static let defaultTabWait: TimeInterval = 5

    public init(loader: BrowserPageLoader, maxTabs: Int = BrowserPool.defaultTabs, tabWait: TimeInterval = BrowserPool.defaultTabWait,
                limits: BrowserLimits? = nil) {
        self.loader = loader
        self.limits = limits
        self.maxTabs = max(1, maxTabs)
        self.tabWait = max(0, tabWait)
        tabs = DispatchSemaphore(value: max(1, maxTabs))
    }

    deinit { stop() }

    /// How many browsers this pool has started (a restart after a crash counts).
    public var starts: Int { lock.withLock { startCount } }

    /// The running browser's process id, if one runs.
    public var processID: pid_t? { lock.withLock { process.flatMap { $0.finished ? nil : $0.pid } } }

    /// Ends the browser (the server is stopping).
    public func stop() {
        let ending = lock.withLock { () -> ChromiumProcess? in
            defer { process = nil; cdp = nil }
            return process
        }
        ending?.terminate(grace: 0.5)
    }

    public func load(_ url: URL, cookies: [Cookie]) throws -> LoadedPage {
        guard tabs.wait(timeout: .now() + tabWait) == .success else {
            throw LoadError.browserBusy(seconds: Int(tabWait.rounded(.up)))
        }
        defer { tabs.signal() }
        // The share's own time starts with its tab: the wait for one never eats it.
        let deadline = Date().addingTimeInterval(loader.timeout)
        lock.withLock { inFlight += 1 }
        defer { finishLoad() }
        let (process, cdp) = try browser()
        let session = BrowserSession(cdp: cdp, loader: loader, deadline: deadline, isolated: true)
        defer { session.closeTab() }
        do {
            return try session.open(url, cookies: cookies)
        } catch let error as LoadError {
            throw error
        } catch BrowserFailure.timedOut {
            throw LoadError.timedOut(url, seconds: Int(loader.timeout))
        } catch BrowserFailure.crashed {
            throw LoadError.browserFailed(BrowserFailure.crashed.description)
        } catch {
            if hasExited(process, closedPipe: error as? BrowserFailure) {
                retire(process)
                throw LoadError.browserFailed("Chromium stopped while loading the page (\(error)); the next share starts it again")
            }
            let tail = process.logTail().split(separator: "\n").last.map { " (\($0))" } ?? ""
            throw LoadError.browserFailed("\(error)\(tail)")
        }
    }

    /// Whether the browser is gone. A pipe that closed under the load (`.exited`) means it is
    /// dying: the kernel closes a killed process's descriptors a moment before the process can
    /// be reaped, so that case waits up to a second for it rather than call it something else.
    private func hasExited(_ process: ChromiumProcess, closedPipe failure: BrowserFailure?) -> Bool {
        let patience: TimeInterval
        if case .exited = failure { patience = 1 } else { patience = 0 }
        let until = Date().addingTimeInterval(patience)
        while true {
            if lock.withLock({ process.hasExited() }) { return true }
            if Date() >= until { return false }
            usleep(10_000)
        }
    }

    /// The running browser, started now if none runs or the last one died.
    private func browser() throws -> (ChromiumProcess, CDPConnection) {
        try lock.withLock {
            if let process, let cdp, !process.finished, !process.hasExited() { return (process, cdp) }
            if let died = process {
                died.killGroup()
                dead.append(died)
            }
            var cgroup: BrowserCgroup?
            if let bytes = limits?.memoryBytes {
                switch BrowserCgroup.make(limit: bytes) {
                case .success(let made):
                    cgroup = made
                    capNote = "at most \(bytes >> 20) MB (cgroup \(made.directory))"
                case .failure(let why):
                    capNote = "not capped by a cgroup: \(why)"
                }
            }
            let started: ChromiumProcess
            do {
                started = try ChromiumProcess(executable: loader.executable, arguments: (limits?.flags ?? []) + loader.arguments,
                                              profileParent: loader.profileParent, environment: loader.environment, cgroup: cgroup)
            } catch {
                throw LoadError.browserFailed("\(error)")
            }
            let connection = CDPConnection(process: started)
            process = started
            cdp = connection
            startCount += 1
            return (started, connection)
        }
    }

    /// Forgets a browser that died (killing what is left of its group), unless a newer one
    /// replaced it; its pipe and profile go once no load is under way.
    private func retire(_ died: ChromiumProcess) {
        lock.withLock {
            died.killGroup()
            if process === died {
                process = nil
                cdp = nil
            }
            if !dead.contains(where: { $0 === died }) { dead.append(died) }
        }
    }

    private func finishLoad() {
        let buried = lock.withLock { () -> [ChromiumProcess] in
            inFlight -= 1
            guard inFlight == 0 else { return [] }
            defer { dead = [] }
            return dead
        }
        for died in buried { died.terminate() }
    }
}
