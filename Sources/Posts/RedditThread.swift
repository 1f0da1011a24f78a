import Foundation
import PiperCore

/// A Reddit post from its public JSON: its title, text (`selftext_html`, else `selftext`), link,
/// pictures and gallery with captions (`media_metadata` + `gallery_data`), video, and its
/// author's own follow-up comments directly under it: the author's first comment on the post,
/// their reply to that, and so on; nobody else's comments. Removed, deleted, private,
/// quarantined and banned posts fail with their reason.
public enum RedditThread {
    static let site = "https://www.reddit.com"

    public static func thread(_ fetched: FetchedPost) throws -> PostThread {
        guard let answer = fetched.answers.last, !fetched.source.isShareLink || fetched.answers.count == 2 else {
            throw PostFailure(.notFound, on: .reddit)   // a share link that led to no post
        }
        try check(answer)
        let listings = try PostAnswer.decode([RedditListing].self, answer.body, on: .reddit, snakeCase: true)
        guard let first = listings.first?.data.children.first(where: { $0.kind == "t3" })?.data else {
            throw PostFailure(.unreadable("no post (\"t3\") in the first listing"), on: .reddit)
        }
        try refuseRemoved(first)
        var posts = [post(first)]
        let author = first.author
        var level = listings.count > 1 ? listings[1].data.children : []
        var parent = first.name ?? "t3_\(first.id ?? "")"
        while let next = level.filter({ $0.kind == "t1" && $0.data.author == author && $0.data.parentId == parent })
            .min(by: { ($0.data.createdUtc ?? 0) < ($1.data.createdUtc ?? 0) })?.data,
            next.body != "[deleted]", next.body != "[removed]" {
            posts.append(post(next))
            parent = next.name ?? "t1_\(next.id ?? "")"
            level = next.replies?.things ?? []
        }
        return PostThread(network: .reddit, posts: posts)
    }

    /// Reddit's error answers: 404 (no such post, or a banned community: `reason` "banned"),
    /// 403 with `reason` "private", "quarantined" or "gold_only", 429.
    static func check(_ answer: LoadedPage) throws {
        guard !(200..<300).contains(answer.statusCode) else { return }
        let reason: PostFailure.Reason
        switch PostAnswer.ErrorAnswer.of(answer)?.reason {
        case "private"?, "gold_only"?: reason = .privateCommunity
        case "quarantined"?: reason = .quarantined
        case "banned"?: reason = .banned
        default: reason = answer.statusCode == 403 ? .blocked : PostAnswer.reason(forStatus: answer.statusCode)
        }
        throw PostFailure(reason, on: .reddit)
    }

    static func refuseRemoved(_ data: RedditData) throws {
        switch data.removedByCategory {
        case nil: break
        case "deleted"?, "author"?: throw PostFailure(.deleted, on: .reddit)
        case "moderator"?: throw PostFailure(.removed(by: "by the community's moderators"), on: .reddit)
        case "automod_filtered"?: throw PostFailure(.removed(by: "by the community's automatic filter"), on: .reddit)
        case "copyright_takedown"?: throw PostFailure(.removed(by: "by Reddit after a copyright notice"), on: .reddit)
        case "community_ops"?: throw PostFailure(.removed(by: "by the community's staff"), on: .reddit)
        default: throw PostFailure(.removed(by: "by Reddit"), on: .reddit)
        }
        if data.author == "[deleted]" && data.selftext == "[deleted]" { throw PostFailure(.deleted, on: .reddit) }
        if data.selftext == "[removed]" { throw PostFailure(.removed(by: "by the community's moderators"), on: .reddit) }
    }

    static func post(_ data: RedditData) -> Post {
        let author = data.author ?? "[deleted]"
        let url = data.permalink.map { site + $0 } ?? data.url ?? site
        let html = data.selftextHtml ?? data.bodyHtml
        let text = html.map(PostHTML.runs) ?? (data.selftext ?? data.body).map { [Post.Run.text($0)] } ?? []
        var post = Post(author: Post.Author(name: "u/\(author)", handle: author, url: "\(site)/user/\(author)"), url: url,
                        published: data.createdUtc.map(PostDate.iso), text: text.filter { $0 != .text("") })
        post.title = data.title
        post.community = data.subredditNamePrefixed
        if let items = data.galleryData?.items {
            post.images = items.compactMap { item in
                guard let media = data.mediaMetadata?[item.mediaId], media.status != "failed",
                      let source = media.s?.u ?? media.s?.gif else { return nil }
                return Post.Image(source: source, alt: item.caption.flatMap { $0.isEmpty ? nil : $0 })
            }
        } else if data.postHint == "image", let image = data.url {
            post.images = [Post.Image(source: image, alt: nil)]
        } else if data.isVideo == true, let video = data.media?.redditVideo?.fallbackUrl {
            post.video = Post.Video(poster: data.preview?.images.first?.source.url, link: video)
        } else if data.isSelf == false, data.isGallery != true, let link = data.url, link != url, data.title != nil {
            post.card = Post.Card(url: link, title: nil, domain: data.domain ?? URL(string: link)?.host)
        }
        if let parent = data.crosspostParentList?.first { post.quote = Post.Quoted(Self.post(parent)) }
        return post
    }
}
