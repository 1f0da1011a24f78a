import Foundation
import PiperCore

/// One page load over an open CDP connection: the steps of `BrowserPageLoader.load`.
/// Not Sendable: lives on the loader's thread for one load. In a shared browser (`isolated`,
/// the server's `BrowserPool`) the load gets a tab of its own in a browser context of its own
/// (cookies and storage apart from every other share), both closed by `close`.
final class BrowserSession {
    private let cdp: CDPConnection
    private let loader: BrowserPageLoader
    private let deadline: Date
    private let isolated: Bool
    private var session: String?
    private var target: String?
    private var context: String?

    init(cdp: CDPConnection, loader: BrowserPageLoader, deadline: Date, isolated: Bool = false) {
        self.cdp = cdp
        self.loader = loader
        self.deadline = deadline
        self.isolated = isolated
    }

    /// Attaches to the page target (creating one if needed) and sets `cookies`; returns the session.
    private func attach(cookies: [Cookie]) throws -> String {
        var targetID: String?
        if isolated {
            context = try cdp.call("Target.createBrowserContext", ["disposeOnDetach": true], deadline: deadline)["browserContextId"] as? String
            guard let context else { throw BrowserFailure.protocolError("no browser context") }
            targetID = try cdp.call("Target.createTarget", ["url": "about:blank", "browserContextId": context],
                                    deadline: deadline)["targetId"] as? String
            target = targetID
        } else {
            let targets = try cdp.call("Target.getTargets", deadline: deadline)
            let infos = targets["targetInfos"] as? [[String: Any]] ?? []
            targetID = infos.first { ($0["type"] as? String) == "page" }?["targetId"] as? String
            if targetID == nil {
                targetID = try cdp.call("Target.createTarget", ["url": "about:blank"], deadline: deadline)["targetId"] as? String
            }
        }
        guard let targetID else { throw BrowserFailure.protocolError("no page target") }
        let attached = try cdp.call("Target.attachToTarget", ["targetId": targetID, "flatten": true], deadline: deadline)
        guard let sessionID = attached["sessionId"] as? String else { throw BrowserFailure.protocolError("no session") }
        session = sessionID

        try cdp.call("Page.enable", session: sessionID, deadline: deadline)
        // Its `targetCrashed` event ends the load at once when the renderer dies (out of memory).
        try cdp.call("Inspector.enable", session: sessionID, deadline: deadline)
        if !cookies.isEmpty {
            try cdp.call("Network.setCookies", ["cookies": cookies.map(Self.cdpCookie)], session: sessionID, deadline: deadline)
        }
        return sessionID
    }

    /// Loads `url`, waits for its load event, and returns the value of each expression.
    func inspect(_ url: URL, expressions: [String]) throws -> [Any?] {
        let sessionID = try attach(cookies: [])
        _ = try navigate(url, session: sessionID)
        _ = try? cdp.waitForEvent("Page.loadEventFired", session: sessionID, deadline: deadline)
        return try expressions.map { try evaluate($0, session: sessionID) }
    }

    func open(_ url: URL, cookies: [Cookie]) throws -> LoadedPage {
        let sessionID = try attach(cookies: cookies)
        let loadedURL = try navigate(url, session: sessionID)

        // The load event, then a settle period for timers; a slow subresource is not fatal.
        let loadDeadline = min(deadline, Date().addingTimeInterval(max(1, deadline.timeIntervalSinceNow - 3)))
        do {
            _ = try cdp.waitForEvent("Page.loadEventFired", session: sessionID, deadline: loadDeadline)
        } catch BrowserFailure.crashed {
            throw BrowserFailure.crashed
        } catch {}
        cdp.drain(until: Date().addingTimeInterval(loader.settle), session: sessionID)
        for _ in 0..<loader.retries {
            let length = try evaluate("document.body ? document.body.innerText.length : 0", session: sessionID) as? Int ?? 0
            if length >= loader.minimumTextLength { break }
            cdp.drain(until: min(deadline, Date().addingTimeInterval(loader.retryInterval)), session: sessionID)
        }
        let snapshot = try evaluate(
            "JSON.stringify([document.documentElement ? document.documentElement.outerHTML : '', location.href, document.contentType])",
            session: sessionID) as? String ?? ""
        guard let parts = try JSONSerialization.jsonObject(with: Data(snapshot.utf8)) as? [String], parts.count == 3 else {
            throw BrowserFailure.protocolError("unreadable page snapshot")
        }
        let type = parts[2].isEmpty ? "text/html" : parts[2]
        return LoadedPage(requestedURL: url, finalURL: URL(string: parts[1]) ?? loadedURL, statusCode: 200,
                          // The DOM comes back as a JS string: it is UTF-8 now, whatever the page's meta says.
                          contentType: "\(type); charset=utf-8", body: Data(parts[0].utf8), loader: .browser)
    }

    /// Navigates; on a navigation error for an X link, tries the other X domain once.
    private func navigate(_ url: URL, session: String) throws -> URL {
        var candidates = [url]
        if let other = XLinks.alternate(url) { candidates.append(other) }
        var lastError = ""
        for candidate in candidates {
            let result = try cdp.call("Page.navigate", ["url": candidate.absoluteString], session: session, deadline: deadline)
            guard let errorText = result["errorText"] as? String, !errorText.isEmpty else { return candidate }
            lastError = errorText
        }
        throw LoadError.unreachable(url, lastError)
    }

    private func evaluate(_ expression: String, session: String) throws -> Any? {
        let result = try cdp.call("Runtime.evaluate", ["expression": expression, "returnByValue": true],
                                  session: session, deadline: deadline)
        if let exception = result["exceptionDetails"] as? [String: Any] {
            throw BrowserFailure.protocolError("script error: \(exception["text"] as? String ?? "unknown")")
        }
        return (result["result"] as? [String: Any])?["value"]
    }

    /// Asks the browser to close (it then exits by itself); errors don't matter, the process is killed anyway.
    func close() {
        _ = try? cdp.call("Browser.close", deadline: min(deadline, Date().addingTimeInterval(2)))
    }

    /// Closes this load's tab and its browser context (a shared browser goes on).
    func closeTab() {
        let soon = Date().addingTimeInterval(2)
        if let target { _ = try? cdp.call("Target.closeTarget", ["targetId": target], deadline: soon) }
        if let context { _ = try? cdp.call("Target.disposeBrowserContext", ["browserContextId": context], deadline: soon) }
        if let session { cdp.discardEvents(session: session) }
    }

    /// A cookie for `Network.setCookies`, with the `SameSite` that `BrowserCookies` chooses.
    static func cdpCookie(_ cookie: Cookie) -> [String: Any] {
        var c: [String: Any] = [
            "name": cookie.name, "value": cookie.value, "domain": cookie.domain, "path": cookie.path,
            "secure": cookie.secure, "httpOnly": cookie.httpOnly, "sameSite": BrowserCookies.sameSite,
        ]
        if let expires = cookie.expires { c["expires"] = expires.timeIntervalSince1970 }
        return c
    }
}
