import Foundation
import MediaImport
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperServer

/// The private podcast feed from a real `piper serve`, read by feedparser (PyPI, in a venv
/// `scripts/check-feed` makes), Python's ElementTree and `xmllint`: titles, enclosures (each
/// fetched), guids, dates, durations, covers, chapters JSON, and a folder as its own show.
@Suite(.ownThread, .timeLimit(.minutes(5)))
struct FeedTests {
    static func check(_ urls: [String]) throws -> [[String: Any]] {
        let result = try runProcessCapturing(packageRoot.appendingPathComponent("scripts/check-feed").path, urls)
        try #require(result.status == 0, "scripts/check-feed failed (it needs python3 -m venv, pip and xmllint): \(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    @Test func theFeedParsesInPodcastParsers() async throws {
        let library = try LibraryServer(fixtures: [("sample.m4b", nil), ("sample.ogg", nil), ("sample.mp3", "Show One")],
                                        made: [("covered.mp3", try CoveredMedia.mp3())])
        let secret = try library.feedSecret()
        let feeds = try Self.check(["\(library.url)/feed/\(secret).xml", "\(library.url)/feed/\(secret)/Show%20One.xml"])
        try #require(feeds.count == 2)
        let whole = feeds[0]
        #expect(whole["bozo"] as? Int == 0, "\(whole["bozoReason"] ?? "")")
        #expect(whole["xmllint"] as? Int == 0, "\(whole["xmllintErrors"] ?? "")")
        #expect(whole["version"] as? String == "rss20")
        #expect(whole["title"] as? String == "Piper library")
        let entries = try #require(whole["entries"] as? [[String: Any]])
        #expect(whole["etreeItemCount"] as? Int == 4)
        // Newest first: the reverse of the import order.
        let newestFirst = library.items.sorted { $0.addedAt > $1.addedAt }
        #expect(entries.compactMap { $0["title"] as? String } == newestFirst.map(\.title))
        for (entry, item) in zip(entries, newestFirst) {
            #expect(entry["etreeTitle"] as? String == item.title, "the second parser agrees")
            #expect(entry["id"] as? String == item.sha256)
            #expect(entry["guidIsPermaLink"] as? String == "false")
            #expect(entry["publishedParsed"] as? Bool == true, "\(entry["published"] ?? "")")
            #expect(entry["duration"] as? String == "\(Int((item.duration ?? -1).rounded()))")
            let enclosures = try #require(entry["enclosures"] as? [[String: Any]])
            #expect(enclosures.count == 1)
            let enclosure = try #require(enclosures.first)
            #expect(enclosure["length"] as? String == "\(item.size)")
            #expect(enclosure["type"] as? String == MediaFormat(rawValue: item.format)?.mimeType)
            let href = try #require(enclosure["href"] as? String)
            let fetched = try await Client.send("GET", href)
            #expect(fetched.status == 200, "\(href)")
            let onDisk = try Data(contentsOf: library.server.state.library.appendingPathComponent(item.path))
            #expect(fetched.body == onDisk)
            #expect(fetched.header("Content-Type") == enclosure["type"] as? String)
        }
        let book = try #require(entries.first { $0["title"] as? String == "Audiobook Sample" })
        let chapters = try #require(book["chapters"] as? [String: Any])
        #expect(chapters["type"] as? String == "application/json+chapters")
        #expect(chapters["served"] as? String == "application/json+chapters")
        let json = try #require(chapters["json"] as? [String: Any])
        #expect(json["version"] as? String == "1.2.0")
        let list = try #require(json["chapters"] as? [[String: Any]])
        #expect(list.map { $0["title"] as? String } == ["Chapter One", "Chapter Two"])
        #expect(list.map { ($0["startTime"] as? NSNumber)?.doubleValue } == [0, 2.5])
        #expect(entries.filter { $0["chapters"] is [String: Any] }.count == 1, "only the m4b has chapters")

        let covered = try #require(entries.first { $0["title"] as? String == "Covered Episode" })
        let image = try #require(covered["image"] as? String)
        let cover = try await Client.send("GET", image)
        #expect(cover.status == 200 && cover.header("Content-Type") == "image/png" && Array(cover.body) == CoveredMedia.png)
        #expect(entries.filter { $0["image"] is String }.count == 1, "covers only where the file has one")

        let show = feeds[1]
        #expect(show["bozo"] as? Int == 0 && show["xmllint"] as? Int == 0)
        #expect(show["title"] as? String == "Show One")
        #expect(show["itunesType"] as? String == "serial")
        #expect((show["entries"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Episode One"])
    }

    /// What gpodder reads a feed with: Debian's python3-podcastparser, under the system Python.
    static func podcastparser(_ url: String) throws -> [[String: Any]] {
        let script = """
            import json, sys, urllib.request, podcastparser
            feed = podcastparser.parse(sys.argv[1], urllib.request.urlopen(sys.argv[1]))
            print(json.dumps({"type": feed.get("type"), "episodes": [{"title": e["title"], "number": e.get("number"),
                "published": e["published"], "chapters": e.get("chapters", [])} for e in feed["episodes"]]}))
            """
        let result = try runProcessCapturing("/usr/bin/python3", ["-c", script, url])
        try #require(result.status == 0, "podcastparser failed (python3-podcastparser; scripts/install-deps installs it): \(result.stderr)")
        let feed = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return try #require(feed["episodes"] as? [[String: Any]])
    }

    /// A book plays in order everywhere: the disc and track tags decide (a two-disc book whose
    /// parts arrived out of order), else the file names' numbers; the folder feed numbers its
    /// episodes, gives discs as seasons and dates that increase in play order; gpodder's parser
    /// and feedparser read the m4b's chapters from the inline Podlove chapters.
    @Test func booksPlayInOrderAndChaptersReachEveryParser() async throws {
        func part(_ title: String, disc: String?, track: String?) throws -> Data {
            try CoveredMedia.mp3(title: title, text: [disc.map { ("TPOS", $0) }, track.map { ("TRCK", $0) }].compactMap { $0 })
        }
        let library = try LibraryServer(fixtures: [("sample.m4b", nil)], placed: [
            ("d2t1.mp3", "Book", try part("Disc Two Part One", disc: "2/2", track: "1")),
            ("d1t2.mp3", "Book", try part("Disc One Part Two", disc: "1/2", track: "2/3")),
            ("d1t1.mp3", "Book", try part("Disc One Part One", disc: "1/2", track: "1/3")),
            ("02 Part Two.mp3", "Named", try part("Part Two", disc: nil, track: nil)),
            ("01 Part One.mp3", "Named", try part("Part One", disc: nil, track: nil)),
        ])
        let secret = try library.feedSecret()
        let book = try Self.podcastparser("\(library.url)/feed/\(secret)/Book.xml")
        #expect(book.map { $0["title"] as? String } == ["Disc One Part One", "Disc One Part Two", "Disc Two Part One"])
        #expect(book.map { $0["number"] as? Int } == [1, 2, 3])
        let dates = book.compactMap { ($0["published"] as? NSNumber)?.intValue }
        #expect(dates.count == 3 && zip(dates, dates.dropFirst()).allSatisfy { $0 < $1 }, "\(dates)")
        let xml = try await Client.send("GET", "\(library.url)/feed/\(secret)/Book.xml")
        #expect(xml.text.components(separatedBy: "<itunes:season>").count == 4, "a season per item: the book has two discs")
        #expect(xml.text.contains("<itunes:season>2</itunes:season>"))
        let named = try Self.podcastparser("\(library.url)/feed/\(secret)/Named.xml")
        #expect(named.map { $0["title"] as? String } == ["Part One", "Part Two"], "the leading numbers of the file names")
        #expect(!(try await Client.send("GET", "\(library.url)/feed/\(secret)/Named.xml")).text.contains("itunes:season"))

        let whole = try Self.podcastparser("\(library.url)/feed/\(secret).xml")
        let audiobook = try #require(whole.first { $0["title"] as? String == "Audiobook Sample" })
        let chapters = try #require(audiobook["chapters"] as? [[String: Any]])
        #expect(chapters.map { $0["title"] as? String } == ["Chapter One", "Chapter Two"])
        // podcastparser keeps whole seconds (its parse_time drops the milliseconds).
        #expect(chapters.map { ($0["start"] as? NSNumber)?.doubleValue } == [0, 2])
        let feedparser = try Self.check(["\(library.url)/feed/\(secret).xml", "\(library.url)/feed/\(secret)/Book.xml"])
        #expect(feedparser.allSatisfy { $0["bozo"] as? Int == 0 && $0["xmllint"] as? Int == 0 })
        let parsedBook = try #require(feedparser[1]["entries"] as? [[String: Any]])
        #expect(parsedBook.compactMap { $0["title"] as? String } == ["Disc One Part One", "Disc One Part Two", "Disc Two Part One"])
        let entry = try #require((feedparser[0]["entries"] as? [[String: Any]])?.first { $0["title"] as? String == "Audiobook Sample" })
        #expect((entry["pscChapters"] as? [[String: Any]])?.map { $0["start"] as? String } == ["00:00:00.000", "00:00:02.500"],
                "feedparser sees the Podlove chapters: \(entry["pscChapters"] ?? "none")")

        let (cookie, _) = try await library.server.pair()
        let page = try await Client.send("GET", "\(library.url)/library", headers: ["Cookie": cookie, "Accept": "text/html"])
        let titles = ["Disc One Part One", "Disc One Part Two", "Disc Two Part One", "Part One", "Part Two"]
        let positions = titles.compactMap { page.text.range(of: ">\($0)<")?.lowerBound }
        #expect(positions.count == 5 && positions[0] < positions[1] && positions[1] < positions[2] && positions[3] < positions[4],
                "the library page lists each folder in play order")
    }

    @Test func aWrongOrRevokedSecretIsNotFound() async throws {
        let library = try LibraryServer(fixtures: [("sample.mp3", nil)])
        let secret = try library.feedSecret()
        #expect(!FileManager.default.fileExists(atPath: library.server.state.url.appendingPathComponent(FeedSecret.name).path),
                "the secret is in the server's store, not in a file")
        let ok = try await Client.send("GET", "\(library.url)/feed/\(secret).xml")
        #expect(ok.status == 200)
        let wrong = try await Client.send("GET", "\(library.url)/feed/\(String(secret.reversed())).xml")
        #expect(wrong.status == 404)
        let revoked = try PiperRun.piper(["library", "feed", "--revoke"], home: library.server.home)
        #expect(revoked.status == 0, "\(revoked.stderr)")
        let fresh = revoked.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(fresh.hasSuffix(".xml") && !fresh.contains(secret))
        let old = try await Client.send("GET", "\(library.url)/feed/\(secret).xml")
        #expect(old.status == 404)
        let newSecret = try library.feedSecret()
        #expect(fresh.hasSuffix("/feed/\(newSecret).xml"))
        let renewed = try await Client.send("GET", "\(library.url)/feed/\(newSecret).xml")
        #expect(renewed.status == 200)
        let noFolder = try await Client.send("GET", "\(library.url)/feed/\(newSecret)/Nothing.xml")
        #expect(noFolder.status == 404)
    }
}

/// The built binary with a given PIPER_HOME.
enum PiperRun {
    static func piper(_ arguments: [String], home: URL) throws -> (status: Int32, stdout: String, stderr: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["PIPER_HOME"] = home.path
        environment.removeValue(forKey: "PIPER_LIBRARY")
        return try runProcessCapturing(piperExecutable.path, arguments, environment: environment)
    }
}
