import Foundation
import PiperCore

// ShareFlow is a pure state machine: it returns actions, the caller performs them (here by
// hand, no I/O) and feeds back what happened. ShareDriver does this with real ports.
var flow = ShareFlow(input: ShareInput(["Read this: https://example.org/story"]))
var actions = flow.start()
while let action = actions.first {
    actions.removeFirst()
    switch action {
    case .loadCookies:
        actions += flow.handle(.cookiesLoaded(CookieJar()))
    case .loadPage(let url, _, let loader):
        let page = LoadedPage(requestedURL: url, body: Data("<p>Hello</p>".utf8), loader: loader)
        actions += flow.handle(.pageLoaded(page))
    case .parse(let page):
        actions += flow.handle(.parsed(ParsedPage(page: page, tree: nil)))   // a real extractor keeps its tree
    case .readRoute:
        actions += flow.handle(.routeRead(RouteEvidence()))   // the page names no media file
    case .checkReaderable:
        actions += flow.handle(.readerableChecked(true))
    case .extract:
        actions += flow.handle(.extracted(ExtractedArticle(title: "Story", content: "<p>Hello</p>")))
    case .save:
        actions += flow.handle(.saved(URL(string: "http://127.0.0.1:8080/0f8f6b9e-8d3b-4c8e-9a7d-1b2c3d4e5f60")!))
    case .copy(let text):
        actions += flow.handle(.copied(text))
    case .progress(let line):
        print(line)
    case .finish(let result):
        print(result)
    default:
        print("not handled here:", action)
    }
}
