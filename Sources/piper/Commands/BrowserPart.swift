import Foundation
import PiperNet
import PiperServer

/// The server's one headless Chromium as a part `ServerApp` owns: started on first need (a
/// share that needs it), ended (its own process group, which would outlive the server) when
/// the server stops, after the listener and the agent and before the proxy it goes through.
final class BrowserPart: ServerPart {
    let name = "browser"
    let pool: BrowserPool

    init(pool: BrowserPool) { self.pool = pool }

    func start() throws {}

    func health() -> PartHealth {
        pool.processID.map { .ok("running (pid \($0))") } ?? .ok(pool.starts == 0 ? "starts on first need" : "restarts on next need")
    }

    func stop(deadline: Date) { pool.stop() }
}
