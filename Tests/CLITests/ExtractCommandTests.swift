import Foundation
import PiperTestSupport
import Testing

/// `piper extract`, run as the built binary.
@Suite(.ownThread) struct ExtractCommandTests {
    static let corpus = PiperBinary.packageRoot.appendingPathComponent("../shared/corpus/readability").standardized

    static func page(_ name: String) -> String {
        corpus.appendingPathComponent(name).appendingPathComponent("source.html").path
    }

    @Test func jsonHasExactlyTheFixedKeys() throws {
        let r = try PiperBinary.run(["extract", "--json", "--base-url", "http://fakehost/test/page.html", Self.page("001")])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let keys = ["title", "byline", "dir", "lang", "content", "textContent", "length", "excerpt", "siteName", "publishedTime", "readerable"]
        #expect(Set(object.keys) == Set(keys))
        #expect(object["title"] as? String == "Get your Frontend JavaScript Code Covered | Code")
        #expect(object["dir"] is NSNull)
        #expect(object["readerable"] as? Bool == true)
        #expect((object["content"] as? String)?.hasPrefix("<div id=\"readability-page-1\" class=\"page\">") == true)
        #expect((object["content"] as? String)?.contains("href=\"http://fakehost/code/") == true)
    }

    /// The keys come in one order, sorted, so two runs print the same bytes and outputs diff.
    @Test func jsonKeysComeInSortedOrderOnEveryRun() throws {
        let source = try Data(contentsOf: URL(fileURLWithPath: Self.page("001")))
        let first = try PiperBinary.run(["extract", "--json", "-"], stdin: source)
        let second = try PiperBinary.run(["extract", "--json", "-"], stdin: source)
        #expect(first.status == 0 && second.status == 0, "\(first.stderr)\(second.stderr)")
        #expect(first.stdout == second.stdout)
        let keys = ["byline", "content", "dir", "excerpt", "lang", "length", "publishedTime", "readerable", "siteName", "textContent", "title"]
        let positions = keys.compactMap { first.stdout.range(of: "\"\($0)\":")?.lowerBound }
        #expect(positions.count == keys.count)
        #expect(positions == positions.sorted(), "keys out of order: \(first.stdout.prefix(200))")
    }

    @Test func htmlAndTextFromStandardInput() throws {
        let source = try Data(contentsOf: URL(fileURLWithPath: Self.page("001")))
        let html = try PiperBinary.run(["extract", "--html", "-"], stdin: source)
        #expect(html.status == 0)
        #expect(html.stdout.hasPrefix("<div id=\"readability-page-1\""))
        let text = try PiperBinary.run(["extract", "-"], stdin: source)
        #expect(text.status == 0)
        #expect(text.stdout.hasPrefix("Get your Frontend JavaScript Code Covered | Code\n===="))
        #expect(!text.stdout.contains("<p>"))
    }

    @Test func notAnArticleExits65WithOneLine() throws {
        let r = try PiperBinary.run(["extract", "--json", "-"], stdin: Data("<html><body></body></html>".utf8))
        #expect(r.status == 65)
        #expect(r.stdout.isEmpty)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(r.stderr.contains("No article found in standard input"))
    }

    @Test func usageErrorsExit64() throws {
        // A URL is loaded through the share loaders (see ShareExtractURLTests); a broken one is a usage error.
        let url = try PiperBinary.run(["extract", "http://"])
        #expect(url.status == 64)
        #expect(url.stderr.contains("not a valid URL"))
        let both = try PiperBinary.run(["extract", "--json", "--html", Self.page("001")])
        #expect(both.status == 64)
        #expect(both.stderr.contains("cannot be used together"))
        let none = try PiperBinary.run(["extract"])
        #expect(none.status == 64)
        let badBase = try PiperBinary.run(["extract", "--base-url", "nope", Self.page("001")])
        #expect(badBase.status == 64)
    }

    @Test func missingFileExits65() throws {
        let r = try PiperBinary.run(["extract", "/nonexistent/page.html"])
        #expect(r.status == 65)
        #expect(r.stderr.contains("Cannot read"))
    }
}

extension ExtractCommandTests {
    @Test func absurdNestingIsBadInputNotACrash() throws {
        let html = String(repeating: "<div>", count: 2_000) + "text" + String(repeating: "</div>", count: 2_000)
        let r = try PiperBinary.run(["extract", "-"], stdin: Data(html.utf8))
        #expect(r.status == 65)
        #expect(r.stderr.contains("nested"))
    }
}

extension ExtractCommandTests {
    static let shortArticle = """
        <html><head><title>Login</title></head><body><article><p>Log in to read this story.</p></article></body></html>
        """

    /// The piper mode applies the pipeline's minimum length, as piper share does: exit 65 with the reason.
    @Test func tooLittleTextIsNotAnArticleInPiperMode() throws {
        let r = try PiperBinary.run(["extract", "-"], stdin: Data(Self.shortArticle.utf8))
        #expect(r.status == 65)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("No article found in standard input: only 26 characters of article text (an article has at least 140)"))
    }

    /// Readability mode returns the short article Readability.js returns, with one line of note
    /// on stderr that a share would refuse it; the text and JSON forms both exit 0.
    @Test func readabilityModeReturnsAShortArticleWithANote() throws {
        let text = try PiperBinary.run(["extract", "--mode", "readability", "-"], stdin: Data(Self.shortArticle.utf8))
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout == "Login\n=====\n\nLog in to read this story.\n")
        let note = text.stderr.split(separator: "\n")
        #expect(note.count == 1)
        #expect(text.stderr.contains("only 26 characters of article text (an article has at least 140)"))
        #expect(text.stderr.contains("piper share would refuse"))

        let json = try PiperBinary.run(["extract", "--json", "--mode", "readability", "-"], stdin: Data(Self.shortArticle.utf8))
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["textContent"] as? String == "Log in to read this story.")
        #expect(object["length"] as? Int == 26)
        #expect(json.stderr.contains("only 26 characters"))

        let quiet = try PiperBinary.run(["extract", "-q", "--mode", "readability", "-"], stdin: Data(Self.shortArticle.utf8))
        #expect(quiet.status == 0)
        #expect(quiet.stderr.isEmpty)
    }

    /// A long enough article gets no note in readability mode.
    @Test func readabilityModeNotesNothingForAnArticle() throws {
        let r = try PiperBinary.run(["extract", "--mode", "readability", Self.page("001")])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty, "\(r.stderr)")
    }

    /// No article at all is still exit 65 in readability mode (Readability.js returns null).
    @Test func readabilityModeWithNoArticleExits65() throws {
        let r = try PiperBinary.run(["extract", "--mode", "readability", "-"], stdin: Data("<html><body></body></html>".utf8))
        #expect(r.status == 65)
        #expect(r.stderr.contains("No article found in standard input"))
    }
}
