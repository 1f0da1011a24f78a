import CorpusEval
import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperNet

/// The route every page of `../shared/corpus` takes when shared, against the route a person
/// sharing it expects: almost all are articles (news, blogs, docs, forums, products); the
/// genuine episode pages are listed in `Routes/episode-pages.txt`, each with why. The decision
/// is the share's (`RouteRules` over the page's evidence, then the readerable check and the
/// extraction for a page that names a file without saying what it is); feeds are not fetched
/// (a page that would search them is counted apart). Misrouted pages are printed by name, and
/// `Routes/ratchet.txt` holds the most that may be misrouted each way.
@Suite(.ownThread, .timeLimit(.minutes(20))) struct RouteCorpusTests {
    enum Route: String { case article, episode, feeds }

    struct Page {
        let collection: String
        let id: String
        let url: URL
        let bytes: () throws -> [UInt8]
        var name: String { "\(collection)/\(id)" }
    }

    static let corpus = packageRoot().appendingPathComponent("../shared/corpus").standardized

    static func pages() throws -> [Page] {
        var pages: [Page] = []
        let readability = corpus.appendingPathComponent("readability")
        for name in try FileManager.default.contentsOfDirectory(atPath: readability.path).sorted() {
            let source = readability.appendingPathComponent(name).appendingPathComponent("source.html")
            guard FileManager.default.fileExists(atPath: source.path) else { continue }
            pages.append(Page(collection: "readability", id: name, url: URL(string: "http://fakehost/test/page.html")!,
                              bytes: { [UInt8](try Data(contentsOf: source)) }))
        }
        for collection in Collection.allCases {
            for page in try collection.pages(in: corpus) {
                let url = page.url.flatMap(URL.init(string:)) ?? URL(string: "https://corpus.example/\(collection.rawValue)/\(page.id)")!
                pages.append(Page(collection: collection.rawValue, id: page.id, url: url, bytes: page.bytes))
            }
        }
        return pages
    }

    /// The route a share of the page takes (without fetching its players or feeds: a page that
    /// would look them up takes the route it takes when they name nothing, and is counted).
    static func route(_ page: Page) throws -> (Route, RouteDecision, lookedUp: EpisodeLookup?) {
        let loaded = LoadedPage(requestedURL: page.url, contentType: "text/html", body: Data(try page.bytes()))
        let extractor = ReadabilityExtractor()
        let parsed = extractor.parse(loaded)
        var decision = RouteRules.decide(PageMediaFinder(playerHosts: []).evidence(in: parsed), preference: .auto)
        var lookedUp: EpisodeLookup?
        if case .lookUp(let lookup, let otherwise) = decision {
            lookedUp = lookup
            decision = otherwise
        }
        let (route, _) = try route(of: decision, parsed, extractor)
        return (route, decision, lookedUp)
    }

    static func route(of decision: RouteDecision, _ parsed: ParsedPage, _ extractor: ReadabilityExtractor) throws -> (Route, RouteDecision) {
        switch decision {
        case .episode: return (.episode, decision)
        case .article: return (.article, decision)
        case .lookUp: return (.feeds, decision)
        case .articleUnlessTooShort:
            guard extractor.isReaderable(parsed) else { return (.episode, decision) }
            do {
                _ = try extractor.extract(parsed)
                return (.article, decision)
            } catch {
                return (.episode, decision)
            }
        }
    }

    /// `name  reason` lines; `#` starts a comment.
    static func lines(_ file: String) throws -> [String] {
        let text = try String(contentsOf: packageRoot().appendingPathComponent("Tests/PiperNetTests/Routes/\(file)"), encoding: .utf8)
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    @Test func everyCorpusPageTakesTheRouteAPersonExpects() throws {
        let episodes = Set(try Self.lines("episode-pages.txt").map { String($0.split(separator: " ")[0]) })
        var limits: [String: Int] = [:]
        for line in try Self.lines("ratchet.txt") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let n = Int(parts[1]) { limits[String(parts[0])] = n }
        }
        let pages = try Self.pages()
        var articlesAsEpisodes: [String] = [], episodesAsArticles: [String] = [], feedSearches: [String] = []
        var articleTotal = 0, episodeTotal = 0
        for page in pages {
            let (route, decision, lookedUp) = try Self.route(page)
            let expected: Route = episodes.contains(page.name) ? .episode : .article
            if expected == .episode { episodeTotal += 1 } else { articleTotal += 1 }
            if let lookedUp {
                feedSearches.append("\(page.name)  players \(lookedUp.players.map(\.absoluteString)) feeds \(lookedUp.feeds.count)")
            }
            if expected == .article, route == .episode { articlesAsEpisodes.append("\(page.name)  \(decision)") }
            if expected == .episode, route != .episode { episodesAsArticles.append("\(page.name)  \(decision)") }
        }
        print("routes: articles sent to the media route \(articlesAsEpisodes.count)/\(articleTotal), "
              + "episode pages saved as articles \(episodesAsArticles.count)/\(episodeTotal), pages that would look up a player or their feeds \(feedSearches.count)")
        for name in articlesAsEpisodes { print("  article routed as an episode: \(name)") }
        for name in episodesAsArticles { print("  episode routed as an article: \(name)") }
        for name in feedSearches { print("  looks up a player or its feeds: \(name)") }
        #expect(pages.count >= 2391, "the corpus is incomplete: \(pages.count) pages")
        #expect(episodes.count == episodeTotal, "episode-pages.txt names pages the corpus lacks")
        let articleLimit = try #require(limits["articles-as-episodes"], "Routes/ratchet.txt lacks articles-as-episodes")
        let episodeLimit = try #require(limits["episodes-as-articles"], "Routes/ratchet.txt lacks episodes-as-articles")
        #expect(articlesAsEpisodes.count <= articleLimit, "more articles routed as episodes than the ratchet allows")
        #expect(episodesAsArticles.count <= episodeLimit, "more episode pages routed as articles than the ratchet allows")
    }
}
