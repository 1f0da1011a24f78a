import Foundation
import PiperCore

/// A Mastodon status and its context as the instance's public API gives them
/// (`GET /api/v1/statuses/:id` and `…/:id/context`): the status, then its author's own thread,
/// each next status being the author's reply to the one before (replies by others, and the
/// author's replies to them, are left out). An error answer is read for its reason.
public enum MastodonThread {
    /// The thread from the answers in order: the status, then its context.
    public static func thread(_ answers: [LoadedPage]) throws -> PostThread {
        guard let statusAnswer = answers.first else { throw PostFailure(.noPost, on: .mastodon) }
        try check(statusAnswer)
        let main = try PostAnswer.decode(MastodonStatus.self, statusAnswer.body, on: .mastodon, snakeCase: true)
        if main.account.suspended == true { throw PostFailure(.suspended, on: .mastodon) }
        var posts = [post(main)]
        if answers.count > 1 {
            try check(answers[1])
            let context = try PostAnswer.decode(MastodonContext.self, answers[1].body, on: .mastodon, snakeCase: true)
            var previous = main.id
            for status in context.descendants where status.account.id == main.account.id && status.inReplyToId == previous {
                posts.append(post(status))
                previous = status.id
            }
        }
        return PostThread(network: .mastodon, posts: posts)
    }

    /// An error answer's reason: 404 `{"error": "Record not found"}` is no such post, 410 a
    /// deleted one, 401 an instance that shows posts only to signed-in users.
    static func check(_ answer: LoadedPage) throws {
        guard !(200..<300).contains(answer.statusCode) else { return }
        let said = PostAnswer.ErrorAnswer.of(answer)?.error?.lowercased() ?? ""
        if said.contains("suspended") { throw PostFailure(.suspended, on: .mastodon) }
        if said.contains("blocked") || answer.statusCode == 403 { throw PostFailure(.blocked, on: .mastodon) }
        throw PostFailure(PostAnswer.reason(forStatus: answer.statusCode), on: .mastodon)
    }

    static func post(_ status: MastodonStatus) -> Post {
        let account = status.account
        let handle = qualified(account)
        let name = account.displayName.flatMap { $0.isEmpty ? nil : $0 } ?? handle
        let url = status.url ?? status.uri
        var post = Post(author: Post.Author(name: name, handle: handle, url: account.url), url: url,
                        published: status.createdAt, text: PostHTML.runs(status.content))
        post.contentWarning = status.spoilerText.flatMap { $0.isEmpty ? nil : $0 }
        for media in status.mediaAttachments {
            let alt = media.description.flatMap { $0.isEmpty ? nil : $0 }
            if media.type == "image", let source = media.url {
                post.images.append(Post.Image(source: source, alt: alt))
            } else if media.type == "video" || media.type == "gifv", post.video == nil {
                post.video = Post.Video(poster: media.previewUrl, link: media.url ?? url, alt: alt)
            }
        }
        if let card = status.card {
            post.card = Post.Card(url: card.url, title: card.title, description: card.description,
                                  domain: URL(string: card.url)?.host ?? card.providerName)
        }
        if let quote = status.quote {
            if let quoted = quote.quotedStatus {
                post.quote = Post.Quoted(Self.post(quoted))
            } else if let state = quote.state, state != "accepted" {
                post.quoteNote = state == "deleted" ? "The quoted post was deleted" : "The quoted post is not shown (\(state))"
            }
        }
        return post
    }

    /// `ada` on social.example is `ada@social.example`, as Mastodon's own pages show it; a
    /// remote account's `acct` already names its instance.
    static func qualified(_ account: MastodonAccount) -> String {
        guard !account.acct.contains("@") else { return account.acct }
        guard let host = account.url.flatMap(URL.init(string:))?.host else { return account.acct }
        return "\(account.acct)@\(host)"
    }
}
