import Foundation
import PiperCore
import PiperNet

extension ExtractCommand {
    /// Loads `url` with the share loaders: Chromium (with the stored X cookies) for X/Twitter
    /// links, plain HTTP otherwise.
    static func load(_ url: URL) throws -> LoadedPage {
        let environment = ProcessInfo.processInfo.environment
        let state = StateFolder.resolve(environment: environment)
        guard XLinks.isXLink(url) else { return try HTTPPageLoader().load(url, cookies: []) }
        guard let browser = BrowserPageLoader.system(environment: environment) else { throw LoadError.browserMissing }
        let jar = try FileCookieStore(state: state).load()
        guard jar.isConnected(at: Date()) else { throw ShareFailure.connectX }
        return try browser.load(url, cookies: jar.live(at: Date()))
    }
}
