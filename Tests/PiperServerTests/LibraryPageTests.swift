import Foundation
@testable import MediaImport
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperServer

/// `GET /library` and removal from it, against a real `piper serve`.
@Suite(.ownThread, .timeLimit(.minutes(3)))
struct LibraryPageTests {
    @Test func thePageListsPlaysGroupsAndFilters() async throws {
        let library = try LibraryServer(fixtures: [("sample.m4b", nil), ("sample.mp3", "Show One"), ("sample.mp4", nil)],
                                        made: [("covered.mp3", try CoveredMedia.mp3())])
        let anonymous = try await Client.send("GET", "\(library.url)/library", headers: ["Accept": "text/html"])
        #expect(anonymous.status == 401 && anonymous.text.contains("piper pair"))
        let (cookie, _) = try await library.server.pair()
        let browser = ["Cookie": cookie, "Accept": "text/html"]
        let page = try await Client.send("GET", "\(library.url)/library", headers: browser)
        #expect(page.status == 200)
        let csp = try #require(page.header("Content-Security-Policy"))
        #expect(csp.contains("media-src 'self'") && csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"))
        let html = page.text
        #expect(!html.contains("<script>"), "no inline script")
        for item in library.items {
            let id = LibraryShelf.id(of: item)
            #expect(html.contains(WebPage.e(item.title)), "\(item.title)")
            let tag = item.format == "mp4" ? "video" : "audio"
            #expect(html.contains("<\(tag) controls preload=\"metadata\" id=\"player-\(id)\" src=\"/media/\(id)\">"), "\(item.path)")
        }
        let book = try library.id("sample.m4b")
        #expect(html.contains("href=\"/media/\(book)#t=2.500\" data-player=\"player-\(book)\" data-start=\"2.500\">Chapter Two</a>"))
        #expect(html.contains("<span class=\"author\">Narrator Name</span>"))
        #expect(html.contains("<span class=\"duration\">0:06</span>"))
        #expect(html.contains("href=\"https://example.com/sample.m4b\""), "the source link")
        let secret = try library.feedSecret()
        #expect(html.contains("<h2>Show One <a class=\"group-feed\" href=\"\(library.url)/feed/\(secret)/Show%20One.xml\">"))
        #expect(html.contains("value=\"\(library.url)/feed/\(secret).xml\""))
        let covered = try library.id("covered.mp3")
        #expect(html.contains("src=\"/media/\(covered)/cover\""))
        #expect(!html.contains("src=\"/media/\(book)/cover\""), "no cover, no image")

        let filtered = try await Client.send("GET", "\(library.url)/library?q=narrator", headers: browser)
        #expect(filtered.text.contains("Audiobook Sample") && !filtered.text.contains("Episode One"))
        #expect(filtered.text.contains("1 of 4 items match"))
        let none = try await Client.send("GET", "\(library.url)/library?q=zzzz", headers: browser)
        #expect(none.text.contains("Nothing matches"))

        let qr = try await Client.send("GET", "\(library.url)/library/feed-qr.svg", headers: browser)
        #expect(qr.status == 200 && qr.header("Content-Type") == "image/svg+xml" && qr.text.hasPrefix("<svg"))
        let script = try await Client.send("GET", "\(library.url)/library.js")
        #expect(script.status == 200 && script.header("Content-Type")?.hasPrefix("text/javascript") == true)
    }

    /// A file shared from a device is listed by its tags' title, with the name it was shared
    /// under beside it (what the share's own page said); a download from the web links its source.
    @Test func anUploadNamesTheFileItWasSharedAs() {
        func item(_ title: String, original: String, source: String?) -> LibraryPage.Entry {
            LibraryPage.Entry(item: LibraryItem(path: original, title: title, author: nil, album: nil, duration: nil, chapters: [], format: "ogg",
                                                size: 1, sha256: String(repeating: "a", count: 64), sourceURL: source, originalName: original,
                                                addedAt: "2026-12-06T07:00:00Z"), hasCover: false)
        }
        #expect(LibraryPage.item(item("Vorbis Episode", original: "Morning walk.ogg", source: nil))
            .contains("shared as <span class=\"shared-as\">Morning walk.ogg</span>"))
        #expect(!LibraryPage.item(item("Morning walk", original: "Morning walk.ogg", source: nil)).contains("shared as"))
        #expect(!LibraryPage.item(item("Vorbis Episode", original: "ep.ogg", source: "https://example.com/ep.ogg")).contains("shared as"))
    }

    @Test func removalIsAuthenticatedSameSiteAndWhole() async throws {
        let library = try LibraryServer(fixtures: [("sample.mp3", nil), ("sample.ogg", nil)])
        let (cookie, _) = try await library.server.pair()
        let id = try library.id("sample.mp3")
        let file = library.server.state.library.appendingPathComponent(try library.item("sample.mp3").path)
        let form = ["Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html"]
        let body = Data("id=\(id)".utf8)

        let anonymous = try await Client.send("POST", "\(library.url)/library/remove", body: body, headers: form.merging(["Sec-Fetch-Site": "same-origin"]) { $1 })
        #expect(anonymous.status == 401)
        let crossSite = try await Client.send("POST", "\(library.url)/library/remove", body: body,
                                              headers: form.merging(["Cookie": cookie, "Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"]) { $1 })
        #expect(crossSite.status == 403)
        let foreignOrigin = try await Client.send("POST", "\(library.url)/library/remove", body: body,
                                                  headers: form.merging(["Cookie": cookie, "Origin": "https://evil.example"]) { $1 })
        #expect(foreignOrigin.status == 403)
        #expect(FileManager.default.fileExists(atPath: file.path), "refused removals leave the file")

        let removed = try await Client.send("POST", "\(library.url)/library/remove", body: body,
                                            headers: form.merging(["Cookie": cookie, "Sec-Fetch-Site": "same-origin", "Origin": library.url]) { $1 })
        // The 303 to the page is followed (URLSession follows redirects; the cookie goes along).
        #expect(removed.status == 200 && removed.text.contains("Removed Episode One from the library."), "\(removed.status) \(removed.text)")
        #expect(!FileManager.default.fileExists(atPath: file.path))
        let left = try LibraryListing.read(state: library.server.state).items
        #expect(left.map(\.originalName) == ["sample.ogg"])
        let feed = try await Client.send("GET", "\(library.url)/feed/\(try library.feedSecret()).xml")
        let gone = try library.item("sample.mp3").sha256, kept = try library.item("sample.ogg").sha256
        #expect(!feed.text.contains(gone) && feed.text.contains(kept))
        let media = try await Client.send("GET", "\(library.url)/media/\(id)", headers: ["Cookie": cookie])
        #expect(media.status == 404)
        let again = try await Client.send("POST", "\(library.url)/library/remove", body: body,
                                          headers: ["Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie, "Sec-Fetch-Site": "same-origin"])
        #expect(again.status == 404)
    }
}

@Suite(.ownThread) struct CoverArtTests {
    @Test func id3PictureFrames() throws {
        let dir = try freshDirectory("cover")
        let file = dir.appendingPathComponent("covered.mp3")
        try CoveredMedia.mp3().write(to: file)
        #expect(CoverArt.read(file, format: .mp3) == CoverArt(mimeType: "image/png", data: CoveredMedia.png))
        #expect(CoverArt.read(mediaFixtures.appendingPathComponent("sample.mp3"), format: .mp3) == nil)
        // A v2.4 tag, a UTF-16 description.
        let n = CoveredMedia.png.count + 18
        let frame: [UInt8] = Array("APIC".utf8) + [UInt8(n >> 21 & 0x7F), UInt8(n >> 14 & 0x7F), UInt8(n >> 7 & 0x7F), UInt8(n & 0x7F), 0, 0]
            + [1] + Array("image/png".utf8) + [0, 3, 0xFF, 0xFE, 0x41, 0x00, 0, 0] + CoveredMedia.png
        #expect(CoverArt.id3Cover(version: 4, flags: 0, tag: frame)?.data == CoveredMedia.png)
        #expect(CoverArt.id3Cover(version: 3, flags: 0, tag: Array(frame.prefix(20))) == nil, "a truncated frame is no cover")
    }

    /// The frame's MIME type is the file maker's word: a picture is a cover only when its bytes
    /// are an image, and then its type is the sniffed one.
    @Test func aCoverIsAnImageByItsBytesOrNothing() throws {
        let dir = try freshDirectory("cover")
        let page = Array("<html><script>alert(1)</script></html>".utf8)
        let svg = Array("<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert(1)\"/>".utf8)
        for (name, mime, picture) in [("html.mp3", "text/html", page), ("svg.mp3", "image/svg+xml", svg), ("empty-type.mp3", "", page)] {
            let file = dir.appendingPathComponent(name)
            try CoveredMedia.mp3(mime: mime, picture: picture).write(to: file)
            #expect(CoverArt.read(file, format: .mp3) == nil, "\(name): not an image, so no cover")
        }
        let lying = dir.appendingPathComponent("lying.mp3")
        try CoveredMedia.mp3(mime: "text/html", picture: CoveredMedia.png).write(to: lying)
        #expect(CoverArt.read(lying, format: .mp3)?.mimeType == "image/png", "a PNG is a PNG whatever the frame says")
    }

    @Test func mp4CovrItems() throws {
        func atom(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let n = body.count + 8
            return [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + Array(type.utf8) + body
        }
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 4]
        let data = atom("data", [0, 0, 0, 13, 0, 0, 0, 0] + jpeg)
        let meta = atom("meta", [0, 0, 0, 0] + atom("hdlr", [UInt8](repeating: 0, count: 25)) + atom("ilst", atom("covr", data)))
        let file = atom("ftyp", Array("M4A ".utf8) + [0, 0, 0, 0]) + atom("moov", atom("udta", meta)) + atom("mdat", [1, 2, 3])
        let dir = try freshDirectory("cover")
        let url = dir.appendingPathComponent("covered.m4a")
        try Data(file).write(to: url)
        #expect(CoverArt.read(url, format: .m4a) == CoverArt(mimeType: "image/jpeg", data: jpeg))
        // A `covr` item typed JPEG (13) whose bytes are a page is no cover.
        let page = atom("data", [0, 0, 0, 13, 0, 0, 0, 0] + Array("<html><script>alert(1)</script>".utf8))
        let fake = atom("meta", [0, 0, 0, 0] + atom("hdlr", [UInt8](repeating: 0, count: 25)) + atom("ilst", atom("covr", page)))
        let faked = dir.appendingPathComponent("faked.m4a")
        try Data(atom("ftyp", Array("M4A ".utf8) + [0, 0, 0, 0]) + atom("moov", atom("udta", fake)) + atom("mdat", [1, 2, 3])).write(to: faked)
        #expect(CoverArt.read(faked, format: .m4a) == nil)
        #expect(CoverArt.read(mediaFixtures.appendingPathComponent("sample.m4b"), format: .m4a) == nil)
    }
}
