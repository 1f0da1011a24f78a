import Foundation
import HTML

/// A Mastodon status and its context as the instance's public API gives them
/// (`GET /api/v1/statuses/:id` and `…/:id/context`): the status, then its author's own thread,
/// each next status being the author's reply to the one before (replies by others, and the
/// author's replies to them, are left out).
public enum MastodonThread {
    /// `/@user/123456` or `/users/user/statuses/123456` on any instance: the status id.
    public static func statusID(_ url: URL) -> String? {
        let parts = url.path.split(separator: "/")
        guard parts.count >= 2, let last = parts.last, last.allSatisfy(\.isNumber),
              parts[parts.count - 2].hasPrefix("@") || (parts.count >= 4 && parts[parts.count - 2] == "statuses") else { return nil }
        return String(last)
    }

    public static func thread(status: Data, context: Data) throws -> PostThread {
        guard let main = try JSONSerialization.jsonObject(with: status) as? [String: Any], let first = post(main),
              let author = (main["account"] as? [String: Any])?["id"] as? String, var previous = main["id"] as? String else {
            throw PostFailure.noPost
        }
        var posts = [first]
        let descendants = (try JSONSerialization.jsonObject(with: context) as? [String: Any])?["descendants"] as? [[String: Any]] ?? []
        for status in descendants {
            guard (status["account"] as? [String: Any])?["id"] as? String == author, status["in_reply_to_id"] as? String == previous,
                  let next = post(status), let id = status["id"] as? String else { continue }
            posts.append(next)
            previous = id
        }
        return PostThread(network: .mastodon, posts: posts)
    }

    static func post(_ status: [String: Any]) -> Post? {
        guard let account = status["account"] as? [String: Any], let acct = account["acct"] as? String,
              let url = status["url"] as? String ?? status["uri"] as? String else { return nil }
        let name = (account["display_name"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? acct
        var post = Post(author: Post.Author(name: name, handle: acct, url: account["url"] as? String), url: url,
                        published: status["created_at"] as? String, text: runs(html: status["content"] as? String ?? ""))
        for media in status["media_attachments"] as? [[String: Any]] ?? [] {
            let type = media["type"] as? String
            if type == "image", let source = media["url"] as? String {
                post.images.append(Post.Image(source: source, alt: (media["description"] as? String).flatMap { $0.isEmpty ? nil : $0 }))
            } else if type == "video" || type == "gifv", post.video == nil {
                post.video = Post.Video(poster: media["preview_url"] as? String, link: media["url"] as? String ?? url)
            }
        }
        if let card = status["card"] as? [String: Any], let link = card["url"] as? String {
            post.card = Post.Card(url: link, title: card["title"] as? String)
        }
        // A quote (Mastodon 4.4 and later): the quoted status, when the instance shows it.
        if let quote = status["quote"] as? [String: Any], let quoted = (quote["quoted_status"] as? [String: Any]).flatMap(Self.post) {
            post.quote = Post.Quoted(quoted)
        }
        return post
    }

    /// A status's HTML as runs: paragraphs apart by a blank line, `<br>` a line break, links
    /// kept (a mention or hashtag is a link too).
    static func runs(html: String) -> [Post.Run] {
        let (document, root) = Document.parseFragment(html, context: "div")
        _ = document
        var runs = RunBuilder()
        func walk(_ node: Node) {
            for child in node.childNodes {
                if child.isText { runs.words(child.textContent); continue }
                guard child.isElement else { continue }
                if child.hasTag("br") { runs.words("\n") } else if child.hasTag("p") {
                    if !runs.runs.isEmpty { runs.words("\n\n") }
                    walk(child)
                } else if child.hasTag("a"), let href = child.getAttribute("href") {
                    // Mastodon hides the middle of long links in `invisible` spans; the text is the URL.
                    runs.link(child.textContent, url: href)
                } else {
                    walk(child)
                }
            }
        }
        walk(root)
        return runs.runs
    }
}
