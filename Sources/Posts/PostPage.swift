import Foundation
import PiperCore

/// A post thread as a reader page: the title ("Author (@handle) on X: first words…", a content
/// warning's words rather than the text it hides, as Mastodon titles it; Reddit's "Title : r/sub"),
/// the byline, date, site and canonical link as metadata, and reader HTML: a header with the
/// author and the post's date (each later post its own date, as plain text), the content
/// warning before the text, the text's line breaks, its pictures with their alt text, a video as
/// its poster and a link, a link card with its title, description and domain, and a quoted
/// post as a blockquote with its author and link (or why it is not shown).
public struct PostPage: Sendable, Equatable {
    public var title: String
    public var byline: String
    public var published: String?
    public var siteName: String
    public var canonicalURL: String
    public var html: String
    public var excerpt: String

    public init(_ thread: PostThread) throws {
        guard let main = thread.main else { throw PostFailure(.noPost, on: thread.network) }
        let who = Self.who(main.author, thread.network)
        if thread.network == .reddit {
            title = "\(main.title ?? Self.firstWords(main.plainText))" + (main.community.map { " : \($0)" } ?? "")
        } else {
            title = "\(who) on \(thread.network.rawValue): \(Self.firstWords(main.contentWarning ?? main.plainText))"
        }
        byline = who
        published = main.published
        siteName = thread.network.rawValue
        canonicalURL = main.url
        excerpt = String(main.plainText.trimmingCharacters(in: .whitespacesAndNewlines).prefix(200))
        html = thread.posts.enumerated().map { index, post in Self.render(post, continuing: index > 0, network: thread.network) }
            .joined(separator: "\n")
    }

    /// "Ada Lovelace (@ada@social.example)"; Reddit's "u/ada".
    static func who(_ author: Post.Author, _ network: PostNetwork) -> String {
        network == .reddit ? author.name : "\(author.name) (@\(author.handle))"
    }

    /// The first words of a post, at most about 60 characters, cut at a word with "…".
    static func firstWords(_ text: String) -> String {
        let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard flat.count > 60 else { return flat.isEmpty ? "a post" : flat }
        var cut = String(flat.prefix(60))
        if let space = cut.lastIndex(of: " ") { cut = String(cut[..<space]) }
        return cut + "…"
    }

    static func render(_ post: Post, continuing: Bool, network: PostNetwork) -> String {
        var html = "<article class=\"post\">\n"
        let time = post.published.map { published in
            "<a href=\"\(e(post.url))\"><time datetime=\"\(e(published))\">\(e(PostDate.shown(published) ?? published))</time></a>"
        }
        if continuing {
            if let time { html += "<p class=\"post-time\">\(time)</p>\n" }
        } else {
            let author = post.author.url.map { "<a href=\"\(e($0))\">\(e(post.author.name))</a>" } ?? e(post.author.name)
            let handle = network == .reddit ? post.community.map { " in \(e($0))" } ?? "" : " (@\(e(post.author.handle)))"
            html += "<p class=\"post-header\"><strong>\(author)</strong>\(handle)" + (time.map { " · \($0)" } ?? "") + "</p>\n"
        }
        html += body(post)
        if let quoted = post.quote?.post {
            html += "<blockquote cite=\"\(e(quoted.url))\">\n<p><strong>\(e(quoted.author.name))</strong> (@\(e(quoted.author.handle)))</p>\n"
                + body(quoted) + "<p><a href=\"\(e(quoted.url))\">The quoted post</a></p>\n</blockquote>\n"
        } else if let note = post.quoteNote {
            html += "<blockquote class=\"post-quote-missing\"><p>\(e(note))</p></blockquote>\n"
        }
        return html + "</article>"
    }

    /// The text as paragraphs (a blank line starts one, a single line break stays `<br>`), then
    /// pictures, the video and the card.
    static func body(_ post: Post) -> String {
        var html = post.contentWarning.map { "<p class=\"post-warning\"><strong>Content warning:</strong> \(e($0))</p>\n" } ?? ""
        var paragraph = ""
        func close() {
            let trimmed = paragraph.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty { html += "<p>\(trimmed.replacingOccurrences(of: "\n", with: "<br>\n"))</p>\n" }
            paragraph = ""
        }
        for run in post.text {
            switch run {
            case .link(let text, let url): paragraph += "<a href=\"\(e(url))\">\(e(text))</a>"
            case .text(let words):
                let blocks = words.components(separatedBy: "\n\n")
                for (index, block) in blocks.enumerated() {
                    if index > 0 { close() }
                    paragraph += e(block)
                }
            }
        }
        close()
        for image in post.images {
            html += "<figure><img src=\"\(e(image.source))\" alt=\"\(e(image.alt ?? ""))\">"
            if let alt = image.alt { html += "<figcaption>\(e(alt))</figcaption>" }
            html += "</figure>\n"
        }
        if let video = post.video {
            let poster = video.poster.map { "<a href=\"\(e(video.link))\"><img src=\"\(e($0))\" alt=\"The video's first frame\"></a><br>" } ?? ""
            let alt = video.alt.map { "<br>\n\(e($0))" } ?? ""
            html += "<p class=\"post-video\">\(poster)<a href=\"\(e(video.link))\">Watch the video</a>\(alt)</p>\n"
        }
        if let card = post.card {
            html += "<p class=\"post-card\"><a href=\"\(e(card.url))\">\(e(card.title ?? card.url))</a>"
                + (card.description.map { "<br>\n\(e($0))" } ?? "") + (card.domain.map { "<br>\n<small>\(e($0))</small>" } ?? "") + "</p>\n"
        }
        return html
    }

    static func e(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
