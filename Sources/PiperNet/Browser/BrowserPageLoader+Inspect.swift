import Foundation

extension BrowserPageLoader {
    /// Loads `url` in a fresh headless Chromium and returns the value of each JavaScript
    /// expression, evaluated over CDP once the page has loaded (the page's own scripts, if its
    /// CSP lets any run, have run by then). For checking what a browser makes of a page.
    public func inspect(_ url: URL, expressions: [String]) throws -> [Any?] {
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
}
