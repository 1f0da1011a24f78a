import Foundation

/// A Bluesky post thread as the public AppView gives it (`app.bsky.feed.getPostThread`): the
/// post, then its author's own thread (the author's reply to it, their reply to that, …);
/// replies by others are left out. Links come from the record's facets (UTF-8 byte ranges).
public enum BlueskyThread {
    /// `https://bsky.app/profile/HANDLE/post/RKEY`: the `at://` URI the AppView takes.
    public static func atURI(_ url: URL) -> String? {
        let parts = url.path.split(separator: "/")
        guard parts.count == 4, parts[0] == "profile", parts[2] == "post" else { return nil }
        return "at://\(parts[1])/app.bsky.feed.post/\(parts[3])"
    }

    public static func thread(_ data: Data) throws -> PostThread {
        guard let root = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["thread"] as? [String: Any] else {
            throw PostFailure.noPost
        }
        if root["notFound"] as? Bool == true { throw PostFailure.deleted }
        guard let view = root["post"] as? [String: Any], let first = post(view),
              let author = (view["author"] as? [String: Any])?["did"] as? String else { throw PostFailure.noPost }
        var posts = [first]
        var node = root
        while let next = (node["replies"] as? [[String: Any]] ?? []).first(where: {
            (($0["post"] as? [String: Any])?["author"] as? [String: Any])?["did"] as? String == author
        }), let nextView = next["post"] as? [String: Any], let reply = post(nextView) {
            posts.append(reply)
            node = next
        }
        return PostThread(network: .bluesky, posts: posts)
    }

    static func post(_ view: [String: Any]) -> Post? {
        guard let author = view["author"] as? [String: Any], let handle = author["handle"] as? String,
              let uri = view["uri"] as? String, let record = view["record"] as? [String: Any] ?? view["value"] as? [String: Any] else { return nil }
        let rkey = uri.split(separator: "/").last.map(String.init) ?? ""
        let name = (author["displayName"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? handle
        var post = Post(author: Post.Author(name: name, handle: handle, url: "https://bsky.app/profile/\(handle)"),
                        url: "https://bsky.app/profile/\(handle)/post/\(rkey)", published: record["createdAt"] as? String,
                        text: runs(record["text"] as? String ?? "", facets: record["facets"] as? [[String: Any]] ?? []))
        embed(view["embed"] as? [String: Any] ?? view["embeds"].flatMap { ($0 as? [[String: Any]])?.first } ?? [:], into: &post)
        return post
    }

    /// The embed views: images (with alt), a video, a link card, a quoted record, or a record
    /// with media.
    static func embed(_ embed: [String: Any], into post: inout Post) {
        switch embed["$type"] as? String {
        case "app.bsky.embed.images#view":
            post.images = (embed["images"] as? [[String: Any]] ?? []).compactMap { image in
                (image["fullsize"] as? String).map { Post.Image(source: $0, alt: (image["alt"] as? String).flatMap { $0.isEmpty ? nil : $0 }) }
            }
        case "app.bsky.embed.video#view":
            post.video = Post.Video(poster: embed["thumbnail"] as? String, link: post.url)
        case "app.bsky.embed.external#view":
            if let external = embed["external"] as? [String: Any], let uri = external["uri"] as? String {
                post.card = Post.Card(url: uri, title: external["title"] as? String)
            }
        case "app.bsky.embed.record#view":
            if let quoted = (embed["record"] as? [String: Any]).flatMap(Self.post) { post.quote = Post.Quoted(quoted) }
        case "app.bsky.embed.recordWithMedia#view":
            if let media = embed["media"] as? [String: Any] { Self.embed(media, into: &post) }
            if let record = (embed["record"] as? [String: Any])?["record"] as? [String: Any], let quoted = Self.post(record) {
                post.quote = Post.Quoted(quoted)
            }
        default: break
        }
    }

    /// The text with its link facets (byte ranges of the UTF-8 text) made links.
    static func runs(_ text: String, facets: [[String: Any]]) -> [Post.Run] {
        let bytes = Array(text.utf8)
        let links = facets.compactMap { facet -> (Range<Int>, String)? in
            guard let index = facet["index"] as? [String: Any], let start = index["byteStart"] as? Int, let end = index["byteEnd"] as? Int,
                  start >= 0, start < end, end <= bytes.count,
                  let uri = (facet["features"] as? [[String: Any]])?.first(where: { $0["$type"] as? String == "app.bsky.richtext.facet#link" })?["uri"] as? String
            else { return nil }
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
