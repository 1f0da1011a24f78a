import Foundation
import PiperTestSupport
import Testing

/// Each core's Documentation.md shows code that the package builds: every ```swift block
/// must equal one of the example targets' files, and the article example must run.
@Suite(.ownThread) struct DocumentationExampleTests {
    static let examples = ["Examples/article/main.swift", "Examples/share-flow/main.swift"]

    static func swiftBlocks(_ markdown: String) -> [String] {
        markdown.components(separatedBy: "```swift\n").dropFirst().compactMap { $0.components(separatedBy: "\n```").first }
    }

    @Test(arguments: ["HTML", "Readability", "Extraction", "PiperCore"])
    func documentationCodeIsABuiltExample(_ module: String) throws {
        let doc = try String(contentsOf: packageRoot.appendingPathComponent("Sources/\(module)/Documentation.md"), encoding: .utf8)
        let examples = try Self.examples.map {
            try String(contentsOf: packageRoot.appendingPathComponent($0), encoding: .utf8).trimmingCharacters(in: .newlines)
        }
        let blocks = Self.swiftBlocks(doc)
        try #require(!blocks.isEmpty, "\(module)/Documentation.md shows no Swift example")
        for block in blocks {
            #expect(examples.contains(block.trimmingCharacters(in: .newlines)),
                    "a code block of \(module)/Documentation.md is not one of \(Self.examples): copy the example file into it")
        }
    }

    @Test func theArticleExampleRunsOnACorpusPage() throws {
        let binary = PiperExecutable.url.deletingLastPathComponent().appendingPathComponent("piper-example-article")
        let page = sharedFolder.appendingPathComponent("corpus/readability/wapo-1/source.html")
        let run = try runProcessCapturing(binary.path, [page.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("characters"), "\(run.stdout)")
        #expect(!run.stdout.contains("not an article"), "\(run.stdout)")
    }

    @Test func theShareFlowExampleEndsSaved() throws {
        let binary = PiperExecutable.url.deletingLastPathComponent().appendingPathComponent("piper-example-share-flow")
        let run = try runProcessCapturing(binary.path, [])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("saved(url: http://127.0.0.1:8080/"), "\(run.stdout)")
    }
}
