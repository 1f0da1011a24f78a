import Foundation

// The AppView's `app.bsky.feed.getPostThread` answer, as far as a post needs it: the thread's
// node kinds (`#threadViewPost`, `#notFoundPost`, `#blockedPost`), the post view and its record,
// and every embed view of the current lexicons (`app.bsky.embed.*#view`).

struct BlueskyThreadAnswer: Decodable {
    var thread: BlueskyNode
}

/// A node of the thread (a class: it holds its replies).
final class BlueskyNode: Decodable {
    let type: String?
    let post: BlueskyPostView?
    let replies: [BlueskyNode]?
    let notFound: Bool?
    let blocked: Bool?

    enum CodingKeys: String, CodingKey { case type = "$type", post, replies, notFound, blocked }
}

struct BlueskyPostView: Decodable {
    var uri: String
    var author: BlueskyProfile
    var record: BlueskyRecord
    var embed: BlueskyEmbed?
}

struct BlueskyProfile: Decodable {
    var did: String
    var handle: String
    var displayName: String?
}

struct BlueskyRecord: Decodable {
    var text: String
    var createdAt: String?
    var facets: [BlueskyFacet]?
}

struct BlueskyFacet: Decodable {
    struct Index: Decodable {
        var byteStart: Int
        var byteEnd: Int
    }
    struct Feature: Decodable {
        var type: String
        var uri: String?
        enum CodingKeys: String, CodingKey { case type = "$type", uri }
    }
    var index: Index
    var features: [Feature]
}

/// An embed view: images or a gallery (`images`), a video, a link card (`external`), a quoted
/// record (`record`), or a record with media (`record` and `media`). One type with the fields
/// of each kind, told apart by `$type`.
final class BlueskyEmbed: Decodable {
    struct Image: Decodable {
        var thumb: String?
        var fullsize: String?
        var alt: String?
    }
    struct External: Decodable {
        var uri: String
        var title: String?
        var description: String?
    }
    let type: String
    let images: [Image]?
    /// A gallery's pictures, where the gallery view names them `items`.
    let items: [Image]?
    let external: External?
    let record: BlueskyEmbedRecord?
    let media: BlueskyEmbed?
    // A video's view.
    let playlist: String?
    let thumbnail: String?
    let alt: String?

    enum CodingKeys: String, CodingKey { case type = "$type", images, items, external, record, media, playlist, thumbnail, alt }
}

/// `app.bsky.embed.record#view`'s record: a post (`#viewRecord`), or one not shown
/// (`#viewNotFound`, `#viewBlocked`, `#viewDetached`), or a feed, list, labeler or starter pack
/// view. In `recordWithMedia#view`, `record` is the record view that holds this.
final class BlueskyEmbedRecord: Decodable {
    /// A record's author: a profile, or only a DID (`#blockedAuthor`).
    struct Author: Decodable {
        var did: String
        var handle: String?
        var displayName: String?
        var profile: BlueskyProfile? { handle.map { BlueskyProfile(did: did, handle: $0, displayName: displayName) } }
    }
    let type: String?
    let uri: String?
    let author: Author?
    let creator: BlueskyProfile?
    let value: BlueskyRecord?
    let embeds: [BlueskyEmbed]?
    let displayName: String?
    let name: String?
    let description: String?
    let record: BlueskyEmbedRecord?

    enum CodingKeys: String, CodingKey {
        case type = "$type", uri, author, creator, value, embeds, displayName, name, description, record
    }
}
