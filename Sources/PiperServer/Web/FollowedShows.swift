import Foundation
import MediaImport
import PiperCore

/// The followed shows as people read them, on the home page and `/follows` alike: each show's
/// title, its episodes, the last check and what it found, and the next check; a failing feed
/// says why in plain words (`FailureMessage`), a stopped one that it stopped.
struct FollowedShow {
    let follow: Follow
    /// The episodes downloaded for it and still kept.
    let episodes: Int

    /// Every follow in `store`, oldest first.
    static func all(in store: any FollowStore) throws -> [FollowedShow] {
        try store.follows().map { FollowedShow(follow: $0, episodes: try store.keptEpisodes(of: $0.id).count) }
    }

    /// Why the feed is failing, in words for people; nil while its checks succeed.
    var problem: String? {
        if let stopped = follow.stopped { return stopped }
        guard follow.failures > 0, let result = follow.lastResult else { return nil }
        return FailureMessage(result, url: follow.url).sentence
    }

    /// One line of the list: a link-free `<li>` (the list is read, not tapped).
    var html: String {
        let e = WebPage.e
        let checked: String
        if let last = follow.lastCheck {
            checked = "checked \(WebPage.timeHTML(last)): " + (problem.map { "<span class=\"error\">\(e($0))</span>" } ?? e(follow.lastResult ?? ""))
        } else {
            checked = "not checked yet"
        }
        let next = follow.stopped == nil ? "; next check \(WebPage.timeHTML(follow.nextCheck))" : ""
        return "<li class=\"follow\" data-follow=\"\(e(follow.id))\"><strong>\(e(follow.title))</strong>, \(episodes) episode\(episodes == 1 ? "" : "s")"
            + " in \(e(follow.folder))<br><span class=\"muted\">\(checked)\(next)</span></li>"
    }

    /// The list, or a line saying there is none.
    static func list(_ shows: [FollowedShow], id: String) -> String {
        shows.isEmpty ? "<p id=\"\(id)-none\" class=\"muted\">Not following any show. Share a podcast's feed and choose Follow.</p>"
            : "<ul class=\"shares\" id=\"\(id)\">\(shows.map(\.html).joined())</ul>"
    }

    /// The show for `GET /follows`'s JSON.
    var object: [String: Any] {
        var object = FollowRoute.object(follow, episodes: episodes)
        object["problem"] = problem ?? NSNull()
        return object
    }
}
