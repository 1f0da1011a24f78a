import Foundation
import HTML
import PiperCore

/// Reads X's rendered post page (what a browser shows once X's script has run): the parts are
/// marked with `data-testid` (`tweet`, `User-Name`, `tweetText`, `tweetPhoto`, `videoPlayer`,
/// `card.wrapper`, and `time`). The post the link names (its status id), then its author's own
/// consecutive replies under it; the first post by anyone else ends the thread, and everything
/// X adds around it ("Who to follow", trends, sign-up prompts, the composer) is never read.
public enum XPage {
    /// The post thread of `document`, the page of `url`, or why there is none.
    public static func thread(_ document: Document, url: URL) throws -> PostThread {
        let articles = document.node.querySelectorAll("article[data-testid=\"tweet\"]")
        let wanted = statusID(url.path)
        let posts = articles.compactMap { post(in: $0, base: url) }
        guard !posts.isEmpty else { throw failure(document) }
        let focalIndex = wanted.flatMap { id in posts.firstIndex { statusID(URL(string: $0.url)?.path ?? "") == id } } ?? (wanted == nil ? 0 : nil)
        guard let focal = focalIndex else { throw failure(document) }
        var thread = [posts[focal]]
        for next in posts[(focal + 1)...] {
            guard next.author.handle.lowercased() == posts[focal].author.handle.lowercased() else { break }
            thread.append(next)
        }
        return PostThread(network: .x, posts: thread)
    }

    /// The id in `/handle/status/ID` (also `/i/web/status/ID`), or nil.
    public static func statusID(_ path: String) -> String? {
        let parts = path.split(separator: "/")
        guard let index = parts.firstIndex(of: "status"), index + 1 < parts.count else { return nil }
        let id = parts[index + 1]
        return id.allSatisfy(\.isNumber) ? String(id) : nil
    }

    /// The post an article holds, quote and all; nil when it has no author or link.
    static func post(in article: Node, base: URL) -> Post? {
        let quoteBox = quoteContainer(in: article)
        func own(_ node: Node) -> Bool { quoteBox.map { !$0.contains(node) } ?? true }
        guard var post = header(in: article, base: base, own: own) else { return nil }
        if let text = article.querySelectorAll("[data-testid=\"tweetText\"]").first(where: own) {
            post.text = runs(text, base: base)
        }
        post.images = article.querySelectorAll("[data-testid=\"tweetPhoto\"] img").filter(own).compactMap { image(from: $0, base: base) }
        if let video = article.querySelectorAll("[data-testid=\"videoPlayer\"] video").first(where: own) {
            post.video = Post.Video(poster: video.getAttribute("poster").flatMap { absolute($0, base) }, link: post.url)
        }
        if let card = article.querySelectorAll("[data-testid=\"card.wrapper\"]").first(where: own),
           let link = card.querySelector("a[href]"), let href = link.getAttribute("href").flatMap({ absolute($0, base) }) {
            post.card = self.card(card, url: href)
        }
        if let quoteBox, var quoted = header(in: quoteBox, base: base, own: { _ in true }) {
            if let text = quoteBox.querySelector("[data-testid=\"tweetText\"]") { quoted.text = runs(text, base: base) }
            quoted.images = quoteBox.querySelectorAll("[data-testid=\"tweetPhoto\"] img").compactMap { image(from: $0, base: base) }
            post.quote = Post.Quoted(quoted)
        }
        return post
    }

    /// The box X draws a quoted post in: an element with `role="link"` inside the article that
    /// has an author line of its own.
    static func quoteContainer(in article: Node) -> Node? {
        article.querySelectorAll("[role=\"link\"]").first { $0.querySelector("[data-testid=\"User-Name\"]") != nil }
    }

    /// Author, handle, time and the post's own link, from its `User-Name` line.
    static func header(in scope: Node, base: URL, own: (Node) -> Bool) -> Post? {
        guard let line = scope.querySelectorAll("[data-testid=\"User-Name\"]").first(where: own) else { return nil }
        let texts = line.querySelectorAll("span").map { $0.textContent.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        guard let handleText = texts.first(where: { $0.hasPrefix("@") }) else { return nil }
        let handle = String(handleText.dropFirst())
        let name = texts.first { !$0.hasPrefix("@") && $0 != "·" } ?? handle
        let time = scope.querySelectorAll("time").first(where: own)
        let link = time.flatMap { node -> String? in
            var current = node.parentElement
            while let element = current, !element.hasTag("a") { current = element.parentElement }
            return current?.getAttribute("href")
        }.flatMap { absolute($0, base) }
        let url = link ?? base.absoluteString
        return Post(author: Post.Author(name: name, handle: handle, url: absolute("/\(handle)", base)), url: url,
                    published: time?.getAttribute("datetime"))
    }

    /// The text's runs: words with their line breaks, links with their href, emoji as their alt.
    static func runs(_ text: Node, base: URL) -> [Post.Run] {
        var runs = RunBuilder()
        func walk(_ node: Node) {
            for child in node.childNodes {
                if child.isText { runs.words(child.textContent); continue }
                guard child.isElement else { continue }
                if child.hasTag("br") { runs.words("\n") } else if child.hasTag("img") {
                    runs.words(child.getAttribute("alt") ?? "")
                } else if child.hasTag("a"), let href = child.getAttribute("href").flatMap({ absolute($0, base) }) {
                    runs.link(child.textContent, url: href)
                } else {
                    walk(child)
                }
            }
        }
        walk(text)
        return runs.runs
    }

    static func image(from node: Node, base: URL) -> Post.Image? {
        guard let source = node.getAttribute("src").flatMap({ absolute($0, base) }) else { return nil }
        let alt = node.getAttribute("alt")?.trimmingCharacters(in: .whitespacesAndNewlines)
        return Post.Image(source: source, alt: alt == nil || alt == "" || alt == "Image" ? nil : alt)
    }

    /// A link card on each layout X renders: its lines (innermost spans, in order) are the
    /// site's domain ("example.org", or "From example.org" under the large layout's picture),
    /// then the title, then the description (the small layout, and the large one's detail).
    /// With no title line (the large layout that draws the title on the picture), the link's
    /// label ("example.org Title") gives it.
    static func card(_ card: Node, url: String) -> Post.Card {
        var lines: [String] = []
        for span in card.querySelectorAll("span") where span.querySelector("span") == nil {
            let line = span.textContent.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            if !line.isEmpty, lines.last != line { lines.append(line) }
        }
        let domain = lines.lazy.compactMap(Self.domain).first
        var rest = lines.filter { Self.domain($0) == nil }
        if rest.isEmpty, let label = card.querySelector("a[aria-label]")?.getAttribute("aria-label") {
            var title = label.trimmingCharacters(in: .whitespaces)
            if let domain, title.lowercased().hasPrefix(domain) { title = String(title.dropFirst(domain.count)).trimmingCharacters(in: .whitespaces) }
            if !title.isEmpty { rest = [title] }
        }
        return Post.Card(url: url, title: rest.first, description: rest.dropFirst().first, domain: domain)
    }

    /// "example.org" or "From example.org": the domain; nil for a line of words.
    static func domain(_ line: String) -> String? {
        let name = line.hasPrefix("From ") ? String(line.dropFirst(5)) : line
        let lower = name.lowercased()
        guard lower.contains("."), !lower.hasPrefix("."), !lower.hasSuffix("."),
              lower.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }),
              let tld = lower.split(separator: ".").last, tld.count >= 2, tld.allSatisfy(\.isLetter) else { return nil }
        return lower
    }

    static func absolute(_ href: String, _ base: URL) -> String? {
        guard let url = URL(string: href, relativeTo: base)?.absoluteURL, let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https" else { return nil }
        return url.absoluteString
    }

    /// What X shows instead of the post: its error, rate-limit, deleted, not-found, protected,
    /// blocked, suspended and age-restricted pages, the tombstone of an account that no longer
    /// exists, or the login wall.
    static func failure(_ document: Document) -> PostFailure {
        PostFailure(failureReason(document), on: .x)
    }

    static let failureTexts: [([String], PostFailure.Reason)] = [
        (["Rate limit exceeded", "You are rate limited"], .rateLimited),
        (["Something went wrong. Try reloading."], .siteError),
        (["Age-restricted adult content"], .ageRestricted),
        (["These posts are protected", "This account's posts are protected", "this account owner limits who can view their Posts"], .protected),
        (["from an account that no longer exists", "This account doesn't exist"], .accountGone),
        (["from a suspended account", "Account suspended"], .suspended),
        (["You're blocked", "You have been blocked"], .blocked),
        (["This post was deleted", "This Post was deleted"], .deleted),
        (["this page doesn't exist", "This Post is unavailable"], .notFound),
    ]

    static func failureReason(_ document: Document) -> PostFailure.Reason {
        let text = document.node.textContent.replacingOccurrences(of: "’", with: "'")
        for (phrases, reason) in failureTexts where phrases.contains(where: text.contains) { return reason }
        if document.node.querySelector("[data-testid=\"loginButton\"]") != nil || text.contains("Sign in to X") { return .needsLogin }
        return .noPost
    }
}
