import Foundation

/// The episode pages of `Tests/CLITests/PodcastPages` (models of podcast hosts' and themes'
/// markup, with their negatives) served over HTTP as a show's site would: each page at
/// `/p/NAME`, the hosts' player pages at `/players/NAME`, the feeds at `/feeds/NAME.xml`, and
/// every media path any of them names answered with a real fixture file of its format.
/// `{{origin}}` in a file is this server's origin (players and page data name files absolutely).
public final class PodcastPageSite: @unchecked Sendable {
    /// One page and the route a person sharing it expects.
    public struct Page: Sendable {
        public var name: String
        /// `media` or `article`.
        public var route: String
        /// For `media`: the path of the file the share must download.
        public var file: String?
    }

    public static let folder = packageRoot.appendingPathComponent("Tests/CLITests/PodcastPages")
    static let media = sharedFolder.appendingPathComponent("fixtures/media")

    public let server: TestHTTPServer
    public let pages: [Page]

    public init() throws {
        server = try TestHTTPServer()
        let origin = server.baseURL.absoluteString
        let manager = FileManager.default
        func read(_ file: URL) throws -> String {
            try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "{{origin}}", with: origin)
        }
        var pages: [Page] = []
        var texts: [String] = []
        for name in try manager.contentsOfDirectory(atPath: Self.folder.path).sorted() where name.hasSuffix(".html") {
            let text = try read(Self.folder.appendingPathComponent(name))
            let stem = String(name.dropLast(5))
            try server.route("/p/\(stem)", .init(body: [UInt8](text.utf8), contentType: "text/html; charset=utf-8", etag: nil))
            guard let expect = text.components(separatedBy: "<!-- expect: ").dropFirst().first?.components(separatedBy: " -->").first else {
                throw SiteError.noExpectation(name)
            }
            let words = expect.split(separator: " ").map(String.init)
            pages.append(Page(name: stem, route: words[0], file: words.count > 1 ? words[1] : nil))
            texts.append(text)
        }
        for (folder, prefix, suffix, type) in [("players", "/players/", ".html", "text/html; charset=utf-8"),
                                               ("feeds", "/feeds/", ".xml", "application/rss+xml")] {
            let directory = Self.folder.appendingPathComponent(folder)
            for name in try manager.contentsOfDirectory(atPath: directory.path).sorted() where name.hasSuffix(suffix) {
                let text = try read(directory.appendingPathComponent(name))
                let path = prefix + (suffix == ".html" ? String(name.dropLast(suffix.count)) : name)
                try server.route(path, .init(body: [UInt8](text.utf8), contentType: type, etag: nil))
                texts.append(text)
            }
        }
        // Every media path named anywhere, answered with a fixture file of its format.
        let formats = ["mp3": ("sample.mp3", "audio/mpeg"), "m4a": ("sample.m4a", "audio/mp4"), "ogg": ("sample.ogg", "audio/ogg"),
                       "mp4": ("sample.mp4", "video/mp4")]
        let pattern = try NSRegularExpression(pattern: "/[A-Za-z0-9._/-]+\\.(mp3|m4a|ogg|mp4)")
        var paths = Set<String>()
        for text in texts {
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let range = Range(match.range, in: text) else { continue }
                var path = String(text[range])
                if let origin = path.range(of: "127.0.0.1") { path = String(path[origin.upperBound...].drop { $0 != "/" }) }
                paths.insert(path)
            }
        }
        for path in paths {
            guard let (fixture, type) = formats[(path as NSString).pathExtension] else { continue }
            try server.route(path, .init(body: [UInt8](try Data(contentsOf: Self.media.appendingPathComponent(fixture))), contentType: type))
        }
        self.pages = pages
    }

    /// The page's address on this site.
    public func url(_ page: Page) -> URL { server.url("/p/\(page.name)") }

    public func stop() { server.stop() }

    public enum SiteError: Error { case noExpectation(String) }
}
