import Foundation

/// A headless Chromium page driven step by step over CDP, for checking what a browser makes of
/// a site across several pages: navigate, evaluate (awaiting promises), raw CDP calls, and the
/// console and `Log` entries it reported (CSP violations among them). One thread drives it.
package final class BrowserScript {
    private let process: ChromiumProcess
    private let cdp: CDPConnection
    private let session: String
    private let deadline: Date

    /// Starts the browser and attaches to its page, with the Page, Runtime and Log domains on.
    package init(loader: BrowserPageLoader) throws {
        process = try ChromiumProcess(executable: loader.executable, arguments: loader.arguments,
                                      profileParent: loader.profileParent, environment: loader.environment)
        cdp = CDPConnection(process: process)
        deadline = Date().addingTimeInterval(loader.timeout * 3)
        let targets = try cdp.call("Target.getTargets", deadline: deadline)["targetInfos"] as? [[String: Any]] ?? []
        var target = targets.first { ($0["type"] as? String) == "page" }?["targetId"] as? String
        if target == nil { target = try cdp.call("Target.createTarget", ["url": "about:blank"], deadline: deadline)["targetId"] as? String }
        guard let target,
              let id = try cdp.call("Target.attachToTarget", ["targetId": target, "flatten": true], deadline: deadline)["sessionId"] as? String else {
            process.terminate()
            throw BrowserFailure.protocolError("no page session")
        }
        session = id
        for domain in ["Page.enable", "Runtime.enable", "Log.enable"] { try cdp.call(domain, session: session, deadline: deadline) }
    }

    deinit { close() }

    /// Navigates and waits for the page's load event.
    package func navigate(_ url: URL) throws {
        cdp.discardEvents("Page.loadEventFired")
        let result = try cdp.call("Page.navigate", ["url": url.absoluteString], session: session, deadline: deadline)
        if let error = result["errorText"] as? String, !error.isEmpty { throw BrowserFailure.protocolError("navigate: \(error)") }
        try waitForLoad()
    }

    /// Runs `expression` (a form submission, say) and waits for the page it leads to.
    package func submit(_ expression: String) throws {
        cdp.discardEvents("Page.loadEventFired")
        _ = try evaluate(expression)
        try waitForLoad()
    }

    /// Waits for the next load event.
    package func waitForLoad() throws {
        _ = try cdp.waitForEvent("Page.loadEventFired", session: session, deadline: deadline)
    }

    /// The value of `expression`; a promise is awaited.
    package func evaluate(_ expression: String) throws -> Any? {
        let result = try cdp.call("Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true],
                                  session: session, deadline: deadline)
        if let exception = result["exceptionDetails"] as? [String: Any] {
            let detail = ((exception["exception"] as? [String: Any])?["description"] as? String) ?? exception["text"] as? String
            throw BrowserFailure.protocolError("script error: \(detail ?? "unknown")")
        }
        return (result["result"] as? [String: Any])?["value"]
    }

    /// A raw CDP call on the page's session.
    @discardableResult
    package func call(_ method: String, _ params: [String: Any] = [:]) throws -> [String: Any] {
        try cdp.call(method, params, session: session, deadline: deadline)
    }

    /// The text of every `Log.entryAdded` and console message seen so far.
    package var logMessages: [String] {
        cdp.seenEvents.compactMap { event -> String? in
            let params = event["params"] as? [String: Any]
            switch event["method"] as? String {
            case "Log.entryAdded": return (params?["entry"] as? [String: Any])?["text"] as? String
            case "Runtime.consoleAPICalled":
                let args = params?["args"] as? [[String: Any]] ?? []
                return args.compactMap { $0["value"].map { "\($0)" } }.joined(separator: " ")
            case "Runtime.exceptionThrown":
                return ((params?["exceptionDetails"] as? [String: Any])?["text"] as? String).map { "exception: \($0)" }
            default: return nil
            }
        }
    }

    package func close() {
        _ = try? cdp.call("Browser.close", deadline: min(deadline, Date().addingTimeInterval(2)))
        process.terminate(grace: 0.5)
    }
}
