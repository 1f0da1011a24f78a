import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperServer

/// What a read-later service reads on the reader page: every Readability corpus article that
/// `piper extract` finds (piper mode, as shares extract) is saved with its metadata, its reader
/// page fetched, and trafilatura and readability-lxml (`scripts/check-reader`) read it. The
/// page's own lines ("Original:" link, byline, expiry) are never read as article text, and the
/// word F1 of what each gives back against `piper extract`'s text keeps the ratchet's mean and
/// its count of pages at 0.99 or more (`Ratchets/reader-round-trip.txt`); each page below 0.99 is
/// printed with the first words each extractor left out and added. Not every page reaches 0.99,
/// for reasons in the extractors rather than the page:
/// - trafilatura drops a paragraph that repeats the one before it word for word (its filter of
///   overlapping candidates), which halves the corpus's pages of two identical lorem-ipsum
///   paragraphs (svg-parsing, social-buttons, title-en-dash, the metadata pages); it drops a
///   paragraph that is one link (base-url's "link" lines), and joins a code block's inline
///   words (toc-missing).
/// - readability-lxml scores only paragraphs, preformatted text, cells and quotes, crediting
///   their parent and grandparent: an article whose paragraphs sit in a table's cells
///   (wikipedia-4's table outscores the body) is read as that one box; it drops a list whose
///   text is over a fifth links (firefox-nightly-blog's lists of bugs, wikipedia-3's external
///   links) and one it scores below zero (liberation-1's live feed, which piper keeps).
/// - The reader HTML keeps the MathML formulas (mathjax), which the text does not hold.
/// - Piper's text holds some of a page's furniture that both leave out (yahoo-3's "Share your
///   recipe", "Now watching"), and trafilatura joins a list item's paragraphs into one word
///   ("ScienceAssociated Press", yahoo-2).
/// What the page can say, it says: captions the text leaves out are figure captions (a
/// picture's paragraph and its legend a figure), the trailing blocks the text leaves out are
/// not in the HTML, a box of only text is a paragraph, and a heading that is one link is served
/// inside the link (the readability family drops a heading that is mostly link).
@Suite(.ownThread, .timeLimit(.minutes(15)))
struct ReaderRoundTripTests {
    static let corpus = SanitizerCorpusTests.corpus
    static let minimum = 0.99

    /// The extract's fields a save carries, as the share client fits them to the save rules.
    static func saveObject(_ extracted: [String: Any], name: String) -> [String: String] {
        var object: [String: String] = ["content": extracted["content"] as? String ?? "",
                                        "sourceURL": "https://corpus.example/\(name)/"]
        let title = (extracted["title"] as? String ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        object["title"] = title.isEmpty ? name : title
        for (field, limit) in SaveFields.textLimits {
            guard let value = (extracted[field] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { continue }
            object[field] = value.count > limit ? String(value.prefix(limit - 1)) + "…" : value
        }
        if let lang = extracted["lang"] as? String, SaveFields.isLanguageTag(lang) { object["lang"] = lang }
        if let dir = (extracted["dir"] as? String)?.lowercased(), SaveFields.directions.contains(dir) { object["dir"] = dir }
        return object
    }

    @Test func readLaterExtractorsReadTheArticleAndOnlyIt() async throws {
        let backend = try startBackend()
        // PIPER_READER_PAGES names a folder that keeps the pages and texts, to look at them.
        let kept = ProcessInfo.processInfo.environment["PIPER_READER_PAGES"].map { URL(fileURLWithPath: $0) }
        let folder = kept ?? FileManager.default.temporaryDirectory.appendingPathComponent("piper-reader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { if kept == nil { try? FileManager.default.removeItem(at: folder) } }
        var saved = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).sorted() {
            let source = Self.corpus.appendingPathComponent(name).appendingPathComponent("source.html")
            guard FileManager.default.fileExists(atPath: source.path) else { continue }
            let run = try runProcessCapturing(piperExecutable.path, ["extract", "--json", "--base-url", "https://corpus.example/\(name)/", source.path])
            // A page piper extract refuses is one a share refuses: no reader page.
            guard run.status == 0 else { continue }
            let extracted = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            let text = try #require(extracted["textContent"] as? String)
            let reply = try await Client.send("POST", backend.baseURL + "/save",
                                              body: try JSONSerialization.data(withJSONObject: Self.saveObject(extracted, name: name)),
                                              headers: ["Content-Type": "application/json"])
            try #require(reply.status == 200, "\(name): save answered \(reply.status): \(reply.text)")
            let page = try await Client.get(try #require(try reply.json()["url"] as? String))
            try #require(page.status == 200)
            try page.body.write(to: folder.appendingPathComponent("\(name).html"))
            try Data(text.utf8).write(to: folder.appendingPathComponent("\(name).txt"))
            saved += 1
        }
        #expect(saved >= 90, "most corpus pages are articles")
        let check = try runProcessCapturing(packageRoot.appendingPathComponent("scripts/check-reader").path, [folder.path])
        try #require(check.status == 0, "scripts/check-reader failed (it needs python3 -m venv and pip): \(check.stderr)")
        let rows = try check.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(rows.count == saved)
        let own = rows.filter { !($0["ownLines"] as? [String] ?? []).isEmpty }.map { "\($0["name"] ?? "?"): \($0["ownLines"] ?? "")" }
        #expect(own.isEmpty, "the reader page's own lines read as article text: \(own)")
        let ratchets = "Tests/PiperServerTests/Ratchets/reader-round-trip.txt"
        for extractor in ["trafilatura", "readability"] {
            let scores = rows.map { ($0["name"] as? String ?? "?", $0[extractor] as? Double ?? 0) }
            let below = scores.filter { $0.1 < Self.minimum }.sorted { $0.1 < $1.1 }
            let mean = scores.map(\.1).reduce(0, +) / Double(max(1, scores.count))
            print(String(format: "reader page read by %@: mean word F1 %.4f, lowest %.4f, %d of %d pages at 0.99 or more", extractor, mean,
                         scores.map(\.1).min() ?? 0, scores.count - below.count, scores.count))
            let diffs = Dictionary(rows.map { ($0["name"] as? String ?? "?", $0["\(extractor)Diff"] as? [String: [String]] ?? [:]) },
                                   uniquingKeysWith: { first, _ in first })
            for (name, f1) in below {
                let diff = diffs[name] ?? [:]
                print(String(format: "  %.4f %@: missing %@; extra %@", f1, name,
                             (diff["missing"] ?? []).joined(separator: " "), (diff["extra"] ?? []).joined(separator: " ")))
            }
            #expect(Int(mean * 1000) >= (try Ratchet.minimum("\(extractor)-mean", in: ratchets)), "\(extractor): mean \(mean)")
            #expect(scores.count - below.count >= (try Ratchet.minimum("\(extractor)-pages", in: ratchets)),
                    "\(extractor): below 0.99: \(below.prefix(8).map { "\($0.0) \($0.1)" })")
        }
    }
}
