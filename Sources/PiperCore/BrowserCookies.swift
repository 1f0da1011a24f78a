import Foundation

/// Which of the owner's X cookies a browser load starts with, and how they are set: the rule
/// that keeps the X login to X. Every page the browser loads for a share runs someone else's
/// script; a page that is not X must never be able to drive the owner's X session, whatever it
/// navigates to, posts to or frames.
public enum BrowserCookies {
    /// The cookies a browser context that loads `url` gets: the live cookies of X's own hosts
    /// (x.com, twitter.com) when the link itself is on one of them, else none. A mirror named in
    /// `x-hosts` is loaded in the browser as X is, but it is another site, and X's cookies are
    /// never sent to it: giving them to its context would only let its page carry them to x.com.
    public static func forLoad(of url: URL, from jar: CookieJar, at now: Date) -> [Cookie] {
        guard XLinks.isXLink(url) else { return [] }
        return jar.live(at: now).filter(\.isXCookie)
    }

    /// The `SameSite` a cookie is set with in the browser. Neither source of the cookies (a
    /// Netscape cookies.txt, the `/connect-x` paste of one) carries the attribute, so it is
    /// chosen here: `Strict`. A share's own navigation is the browser's (no initiator), which
    /// counts as same-site, so X's page and its calls to x.com's hosts still carry the login; a
    /// request another site starts (a frame, a form POST, even a top-level GET link) carries
    /// none. `Lax` would still let a top-level GET from another site carry them, and a cookie set
    /// without the attribute is worse: Chromium treats it as Lax but, for its first two minutes,
    /// sends it on cross-site top-level POSTs too ("Lax-allowing-unsafe").
    public static let sameSite = "Strict"
}
