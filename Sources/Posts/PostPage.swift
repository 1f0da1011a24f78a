import Foundation

/// A post thread as a reader page: the title ("Author (@handle) on X: first words…"), the
/// byline, date, site and canonical link as metadata, and reader HTML that keeps the post's line
/// breaks, its pictures with their alt text, a video as its poster and a link, a link card as a
/// link with its title, and a quoted post as a blockquote with its author and link.
public struct PostPage: Sendable, Equatable {
    public var title: String
    public var byline: String
    public var published: String?
    public var siteName: String
    public var canonicalURL: String
    public var html: String
    public var excerpt: String

    public init(_ thread: PostThread) throws {
        guard let main = thread.main else { throw PostFailure.noPost }
        let who = "\(main.author.name) (@\(main.author.handle))"
        title = "\(who) on \(thread.network.rawValue): \(Self.firstWords(main.plainText))"
        byline = who
        published = main.published
        siteName = thread.network.rawValue
        canonicalURL = main.url
        excerpt = String(main.plainText.trimmingCharacters(in: .whitespacesAndNewlines).prefix(200))
        html = thread.posts.enumerated().map { index, post in Self.render(post, continuing: index > 0) }.joined(separator: "\n")
    }

    /// The first words of a post, at most about 60 characters, cut at a word with "…".
    static func firstWords(_ text: String) -> String {
        let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard flat.count > 60 else { return flat.isEmpty ? "a post" : flat }
        var cut = String(flat.prefix(60))
        if let space = cut.lastIndex(of: " ") { cut = String(cut[..<space]) }
        return cut + "…"
    }

    static func render(_ post: Post, continuing: Bool) -> String {
        var html = "<article class=\"post\">\n"
        if continuing, let published = post.published {
            html += "<p class=\"post-time\"><a href=\"\(e(post.url))\"><time datetime=\"\(e(published))\">\(e(published))</time></a></p>\n"
        }
        html += body(post)
        if let quoted = post.quote?.post {
            html += "<blockquote cite=\"\(e(quoted.url))\">\n<p><strong>\(e(quoted.author.name))</strong> (@\(e(quoted.author.handle)))</p>\n"
                + body(quoted) + "<p><a href=\"\(e(quoted.url))\">The quoted post</a></p>\n</blockquote>\n"
        }
        return html + "</article>"
    }

    /// The text as paragraphs (a blank line starts one, a single line break stays `<br>`), then
    /// pictures, the video and the card.
    static func body(_ post: Post) -> String {
        var html = ""
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
            html += "<p class=\"post-video\">\(poster)<a href=\"\(e(video.link))\">Watch the video</a></p>\n"
        }
        if let card = post.card {
            html += "<p class=\"post-card\"><a href=\"\(e(card.url))\">\(e(card.title ?? card.url))</a></p>\n"
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
