import Foundation
import MediaImport
import PiperCore
import PiperNet
import PiperServer

/// `piper serve`'s share sheet end: the same adapters `piper share` uses (libcurl page loader,
/// Readability, the X cookies, the download journal), every fetch behind the SSRF guard, and
/// the download agent running inside the server.
struct ServeSharing {
    /// The default upload cap, 2 GiB.
    static let defaultMaxUploadBytes = 2 << 30
    let allowHosts: [String]
    let maxUploadBytes: Int64
    let sharesPerMinute: Double
    let pair: Bool

    func services(state: StateFolder) -> ShareServices {
        let guardPolicy = FetchGuard(policy: FetchPolicy(allowing: allowHosts))
        guardPolicy.installForProcess()
        var queue = JournalMediaQueue(state: state)
        queue.takesFilesFrom = state.uploads   // uploads are renamed into the journal, not copied
        var services = ShareServices(
            cookies: FileCookieStore(state: state), httpLoader: HTTPPageLoader(), browserLoader: nil,
            extractor: ReadabilityExtractor(), media: queue, jobs: JournalJobs(state: state),
            fetchGuard: guardPolicy, state: state)
        services.maxUploadBytes = maxUploadBytes
        services.sharesPerMinute = sharesPerMinute
        services.mediaFinder = PageMediaFinder(fetch: PageMediaFinder.httpFetch)
        return services
    }

    /// Works the download journal on a thread of its own for as long as the server runs, so
    /// shared media lands in this server's library (and its fetches pass the same guard).
    func startAgent(state: StateFolder) {
        let environment = ProcessInfo.processInfo.environment
        let thread = Thread {
            let importer = try? AgentImporterFactory.make(state: state)
            let agent = Agent(state: state, settings: AgentSettings.from(environment: environment), importer: importer,
                              log: AgentLog.writer(quiet: false))
            do {
                if case .alreadyRunning = try agent.run(once: false) {
                    Output.err("Another agent already works this state folder; it downloads what is shared here.")
                }
            } catch {
                Output.err("The download agent stopped: \(error)")
            }
        }
        thread.name = "piper-agent"
        thread.start()
    }

    /// `--pair`: a pairing URL (and its QR code) for the running server, on stderr.
    func printPairing(state: StateFolder, publicURL: String) throws {
        let code = try DeviceRegistry(state: state).createPairing()
        for line in PairCommand.lines(base: publicURL, code: code) { Output.err(line) }
    }
}
