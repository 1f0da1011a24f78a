import Foundation

extension BrowserPageLoader {
    /// Loads `url` in a fresh headless Chromium and returns the value of each JavaScript
    /// expression, evaluated over CDP once the page has loaded (the page's own scripts, if its
    /// CSP lets any run, have run by then). For checking what a browser makes of a page.
    package func inspect(_ url: URL, expressions: [String]) throws -> [Any?] {
        let process = try ChromiumProcess(executable: executable, arguments: arguments, profileParent: profileParent,
                                          environment: environment)
        defer { process.terminate() }
        let session = BrowserSession(cdp: CDPConnection(process: process), loader: self,
                                     deadline: Date().addingTimeInterval(timeout))
        let values = try session.inspect(url, expressions: expressions)
        session.close()
        process.terminate(grace: 0.5)
        return values
    }

    /// `inspect` for many pages in one headless Chromium, one after another in its page target:
    /// the expressions' values per page, in order. For checking a whole corpus in one browser.
    package func inspect(_ urls: [URL], expressions: [String]) throws -> [[Any?]] {
        let process = try ChromiumProcess(executable: executable, arguments: arguments, profileParent: profileParent,
                                          environment: environment)
        defer { process.terminate() }
        let cdp = CDPConnection(process: process)
        var results: [[Any?]] = []
        var last: BrowserSession?
        for url in urls {
            let session = BrowserSession(cdp: cdp, loader: self, deadline: Date().addingTimeInterval(timeout))
            results.append(try session.inspect(url, expressions: expressions))
            last = session
        }
        last?.close()
        process.terminate(grace: 0.5)
        return results
    }
}
