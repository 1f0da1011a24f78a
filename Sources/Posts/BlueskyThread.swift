import Foundation
import PiperCore

/// A Bluesky post thread as the public AppView gives it (`app.bsky.feed.getPostThread`): the
/// post, then its author's own thread (the author's reply to it, their reply to that, …);
/// replies by others are left out. Links come from the record's facets (UTF-8 byte ranges).
/// An XRPC error answer (400 `{"error": "NotFound"}`) is read for its reason.
public enum BlueskyThread {
    public static func thread(_ answers: [LoadedPage]) throws -> PostThread {
        guard let answer = answers.first else { throw PostFailure(.noPost, on: .bluesky) }
        try check(answer)
        let root = try PostAnswer.decode(BlueskyThreadAnswer.self, answer.body, on: .bluesky).thread
        if root.notFound == true || root.type == "app.bsky.feed.defs#notFoundPost" { throw PostFailure(.notFound, on: .bluesky) }
        if root.blocked == true || root.type == "app.bsky.feed.defs#blockedPost" { throw PostFailure(.blocked, on: .bluesky) }
        guard let view = root.post else { throw PostFailure(.unreadable("no \"post\" at thread"), on: .bluesky) }
        var posts = [post(view)]
        var node = root
        while let next = (node.replies ?? []).first(where: { $0.post?.author.did == view.author.did }), let reply = next.post {
            posts.append(post(reply))
            node = next
        }
        return PostThread(network: .bluesky, posts: posts)
    }

    /// XRPC errors by name: `NotFound`, a block, a taken-down or deactivated account, a handle
    /// that no longer resolves.
    static func check(_ answer: LoadedPage) throws {
        guard !(200..<300).contains(answer.statusCode) else { return }
        let said = PostAnswer.ErrorAnswer.of(answer)
        let reason: PostFailure.Reason
        switch said?.error {
        case "NotFound"?: reason = .notFound
        case "BlockedActor"?, "BlockedByActor"?: reason = .blocked
        case "AccountTakedown"?: reason = .suspended
        case "AccountDeactivated"?: reason = .accountGone
        case "InvalidRequest"? where (said?.message ?? "").contains("resolve handle") || (said?.message ?? "").contains("not found"):
            reason = .accountGone
        default: reason = PostAnswer.reason(forStatus: answer.statusCode == 400 ? 404 : answer.statusCode)
        }
        throw PostFailure(reason, on: .bluesky)
    }

    static func post(_ view: BlueskyPostView) -> Post {
        post(uri: view.uri, author: view.author, record: view.record, embeds: view.embed.map { [$0] } ?? [])
    }

    static func post(uri: String, author: BlueskyProfile, record: BlueskyRecord, embeds: [BlueskyEmbed]) -> Post {
        let rkey = uri.split(separator: "/").last.map(String.init) ?? ""
        let name = author.displayName.flatMap { $0.isEmpty ? nil : $0 } ?? author.handle
        let link = "https://bsky.app/profile/\(author.handle)/post/\(rkey)"
        var post = Post(author: Post.Author(name: name, handle: author.handle, url: "https://bsky.app/profile/\(author.handle)"),
                        url: link, published: record.createdAt, text: runs(record.text, facets: record.facets ?? []))
        for embed in embeds { self.embed(embed, into: &post) }
        return post
    }

    /// Every embed view of the lexicons: images and galleries (with alt), a video (its
    /// thumbnail, alt and the post as its link), a link card, a quoted record (a post, or why
    /// it is not shown, or a feed, list, labeler or starter pack as a card), a record with media.
    static func embed(_ embed: BlueskyEmbed, into post: inout Post) {
        switch embed.type {
        case "app.bsky.embed.images#view", "app.bsky.embed.gallery#view":
            post.images += (embed.images ?? embed.items ?? []).compactMap { image in
                (image.fullsize ?? image.thumb).map { Post.Image(source: $0, alt: image.alt.flatMap { $0.isEmpty ? nil : $0 }) }
            }
        case "app.bsky.embed.video#view":
            post.video = Post.Video(poster: embed.thumbnail, link: post.url, alt: embed.alt.flatMap { $0.isEmpty ? nil : $0 })
        case "app.bsky.embed.external#view":
            if let external = embed.external {
                post.card = Post.Card(url: external.uri, title: external.title, description: external.description,
                                      domain: URL(string: external.uri)?.host)
            }
        case "app.bsky.embed.record#view":
            if let record = embed.record { quote(record, into: &post) }
        case "app.bsky.embed.recordWithMedia#view":
            if let media = embed.media { self.embed(media, into: &post) }
            if let record = embed.record?.record { quote(record, into: &post) }
        default: break
        }
    }

    static func quote(_ record: BlueskyEmbedRecord, into post: inout Post) {
        let owner = record.creator ?? record.author?.profile
        let rkey = record.uri?.split(separator: "/").last.map(String.init) ?? ""
        func card(_ kind: String, _ path: String, _ title: String?) {
            guard let owner else { return }
            post.card = Post.Card(url: "https://bsky.app/profile/\(owner.handle)/\(path)/\(rkey)",
                                  title: "\(kind): \(title ?? rkey) by @\(owner.handle)", description: record.description ?? record.record?.description,
                                  domain: "bsky.app")
        }
        switch record.type {
        case "app.bsky.embed.record#viewRecord":
            if let author = record.author?.profile, let value = record.value, let uri = record.uri {
                post.quote = Post.Quoted(Self.post(uri: uri, author: author, record: value, embeds: record.embeds ?? []))
            }
        case "app.bsky.embed.record#viewNotFound": post.quoteNote = "The quoted post was deleted"
        case "app.bsky.embed.record#viewBlocked": post.quoteNote = "The quoted post is hidden by a block"
        case "app.bsky.embed.record#viewDetached": post.quoteNote = "The quoted post's author removed this quote"
        case "app.bsky.feed.defs#generatorView": card("Feed", "feed", record.displayName)
        case "app.bsky.graph.defs#listView": card("List", "lists", record.name)
        case "app.bsky.labeler.defs#labelerView": card("Labeler", "labeler", owner?.displayName)
        case "app.bsky.graph.defs#starterPackViewBasic": card("Starter pack", "start", record.record?.name)
        default: break
        }
    }

    /// The text with its link facets (byte ranges of the UTF-8 text) made links.
    static func runs(_ text: String, facets: [BlueskyFacet]) -> [Post.Run] {
        let bytes = Array(text.utf8)
        let links = facets.compactMap { facet -> (Range<Int>, String)? in
            let start = facet.index.byteStart, end = facet.index.byteEnd
            guard start >= 0, start < end, end <= bytes.count,
                  let uri = facet.features.first(where: { $0.type == "app.bsky.richtext.facet#link" })?.uri else { return nil }
            return (start..<end, uri)
        }.sorted { $0.0.lowerBound < $1.0.lowerBound }
        var runs: [Post.Run] = []
        var at = 0
        for (range, uri) in links where range.lowerBound >= at {
            if range.lowerBound > at { runs.append(.text(String(decoding: bytes[at..<range.lowerBound], as: UTF8.self))) }
            runs.append(.link(text: String(decoding: bytes[range], as: UTF8.self), url: uri))
            at = range.upperBound
        }
        if at < bytes.count { runs.append(.text(String(decoding: bytes[at...], as: UTF8.self))) }
        return runs
    }
}
