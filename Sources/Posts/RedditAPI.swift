import Foundation

// Reddit's public JSON for a post (`/r/SUB/comments/ID/….json`): an array of two Listings, the
// post (`t3`) and its comment tree (`t1`, with `more` stubs). The snake_case keys are read as
// camelCase; every field a kind may lack is optional.

struct RedditListing: Decodable {
    struct Children: Decodable {
        var children: [RedditThing]
    }
    var data: Children
}

struct RedditThing: Decodable {
    var kind: String
    var data: RedditData
}

/// A post's or a comment's fields (a class: a comment holds its replies, a crosspost its parent).
final class RedditData: Decodable {
    struct Gallery: Decodable {
        struct Item: Decodable {
            var mediaId: String
            var caption: String?
        }
        var items: [Item]
    }
    struct Media: Decodable {
        struct Source: Decodable {
            var u: String?
            var gif: String?
        }
        var status: String?
        var s: Source?
    }
    struct Video: Decodable {
        struct RedditVideo: Decodable { var fallbackUrl: String? }
        var redditVideo: RedditVideo?
    }
    struct Preview: Decodable {
        struct Image: Decodable {
            struct Source: Decodable { var url: String }
            var source: Source
        }
        var images: [Image]
    }

    let id: String?
    let name: String?
    let author: String?
    let title: String?
    let selftext: String?
    let selftextHtml: String?
    let body: String?
    let bodyHtml: String?
    let url: String?
    let permalink: String?
    let domain: String?
    let subredditNamePrefixed: String?
    let createdUtc: Double?
    let isSelf: Bool?
    let isVideo: Bool?
    let isGallery: Bool?
    let postHint: String?
    let galleryData: Gallery?
    let mediaMetadata: [String: Media]?
    let media: Video?
    let preview: Preview?
    /// Who removed the post: `moderator`, `deleted`, `author`, `reddit`, `automod_filtered`,
    /// `copyright_takedown`, `content_takedown`, `anti_evil_ops`, `community_ops`.
    let removedByCategory: String?
    let parentId: String?
    let replies: RedditReplies?
    let crosspostParentList: [RedditData]?
}

/// A comment's `replies`: a Listing, or `""` when it has none.
struct RedditReplies: Decodable {
    var things: [RedditThing]

    init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self), text.isEmpty {
            things = []
        } else {
            things = try RedditListing(from: decoder).data.children
        }
    }
}
