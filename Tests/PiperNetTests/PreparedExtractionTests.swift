import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperNet

/// `piper share` extracts a page while the media search waits for the page's feeds: the
/// article and the readerable check must be the ones the steps alone make, and the search
/// must still find what the page's tree names.
@Suite(.ownThread) struct PreparedExtractionTests {
    let pageURL = URL(string: "http://fakehost/test/page.html")!

    /// Corpus page 001 (it links three RSS feeds), optionally with a link to a media file.
    func pageWithFeeds(mediaLink: Bool) throws -> LoadedPage {
        let file = packageRoot().appendingPathComponent("../shared/corpus/readability/001/source.html").standardizedFileURL
        var html = try String(contentsOf: file, encoding: .utf8)
        if mediaLink { html = html.replacingOccurrences(of: "</body>", with: #"<a href="/files/episode.mp3">Episode</a></body>"#) }
        return LoadedPage(requestedURL: pageURL, contentType: "text/html; charset=utf-8", body: Data(html.utf8))
    }

    @Test func theFeedsAreFetchedWhileTheExtractionRuns() throws {
        let page = try pageWithFeeds(mediaLink: false)
        let extracting = DispatchSemaphore(value: 0)
        let overlapped = Flags()
        let finder = PageMediaFinder(fetch: { url in
            // Each fetch waits for the extraction to have started: fetched one after the
            // other on the searching thread, they would time out here.
            overlapped.set(url.path, extracting.wait(timeout: .now() + 20) == .success)
            extracting.signal()
            return nil
        }, document: PageDocument(), whileFetching: { _ in extracting.signal() })
        #expect(finder.findMedia(in: page) == nil)
        #expect(overlapped.values == ["/photography/feed": true, "/code/feed": true, "/talks/feed": true])
    }

    @Test func thePreparedArticleIsTheExtractStepsArticle() throws {
        let page = try pageWithFeeds(mediaLink: true)
        let document = PageDocument()
        let extractor = ReadabilityExtractor(document: document)
        let finder = PageMediaFinder(fetch: { _ in nil }, document: document, whileFetching: extractor.prepare)
        // No feed names the page: the search answers with the link it read before the
        // extraction took the tree.
        let media = finder.findMedia(in: page)
        #expect(media?.url.absoluteString == "http://fakehost/files/episode.mp3")
        #expect(media?.signal == "link")
        #expect(extractor.isReaderable(page) == ReadabilityExtractor().isReaderable(page))
        let prepared = try extractor.extract(page)
        let alone = try ReadabilityExtractor().extract(page)
        #expect(prepared == alone)
        #expect(document.takePrepared(page) == nil, "the prepared result is handed over once")
    }

    @Test func aPreparedRefusalIsTheSameError() throws {
        let html = #"<html><head><link rel="alternate" type="application/rss+xml" href="/a.xml"></head><body><form><input name=u></form></body></html>"#
        let page = LoadedPage(requestedURL: pageURL, contentType: "text/html", body: Data(html.utf8))
        let document = PageDocument()
        let extractor = ReadabilityExtractor(document: document)
        #expect(PageMediaFinder(fetch: { _ in nil }, document: document, whileFetching: extractor.prepare).findMedia(in: page) == nil)
        #expect(throws: ExtractionError.notAnArticle(page.finalURL)) { try extractor.extract(page) }
    }
}

/// Results written by the fetch threads, read after the search returned.
private final class Flags: @unchecked Sendable {   // guarded by `lock`
    private let lock = NSLock()
    private var flags: [String: Bool] = [:]
    func set(_ key: String, _ value: Bool) { lock.lock(); flags[key] = value; lock.unlock() }
    var values: [String: Bool] { lock.lock(); defer { lock.unlock() }; return flags }
}
