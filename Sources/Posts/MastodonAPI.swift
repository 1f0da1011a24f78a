import Foundation

// Mastodon's documented entities, as far as a post needs them (`GET /api/v1/statuses/:id`,
// `…/:id/context`); the JSON's snake_case keys are read as camelCase.

struct MastodonStatus: Decodable {
    var id: String
    var createdAt: String?
    var inReplyToId: String?
    var url: String?
    var uri: String
    var content: String
    var spoilerText: String?
    var account: MastodonAccount
    var mediaAttachments: [MastodonMedia]
    var card: MastodonCard?
    /// Mastodon 4.4's quote: the quoted status when the instance shows it.
    var quote: MastodonQuote?
}

struct MastodonAccount: Decodable {
    var id: String
    var username: String
    /// `user` for an account of the instance, `user@domain` for one from elsewhere.
    var acct: String
    var displayName: String?
    var url: String?
    var suspended: Bool?
}

struct MastodonMedia: Decodable {
    var type: String
    var url: String?
    var previewUrl: String?
    var description: String?
}

struct MastodonCard: Decodable {
    var url: String
    var title: String?
    var description: String?
    var providerName: String?
}

/// A class: a quote holds a status, which may hold a quote.
final class MastodonQuote: Decodable {
    /// `accepted`, `pending`, `rejected`, `revoked`, `deleted`, `unauthorized`.
    let state: String?
    let quotedStatus: MastodonStatus?
}

struct MastodonContext: Decodable {
    var descendants: [MastodonStatus]
}
