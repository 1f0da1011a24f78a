import Foundation
import HTML
import PiperTestSupport
import Testing
@testable import Extraction

/// `Tuning` as a value the pipeline receives: every field reachable by name for a development
/// run's overrides, overrides read or refused with the field named, and the pipeline deciding by
/// the tuning it is given rather than the standard one.
@Suite(.ownThread) struct TuningTests {
    /// The table of fields by name is `Tuning`'s stored properties, each name reaching the
    /// property of that name (a value set through the table shows under that label).
    @Test func everyFieldIsReachableByItsName() throws {
        let labels = Mirror(reflecting: Tuning.standard).children.compactMap(\.label)
        #expect(Set(labels) == Set(Tuning.fields.keys))
        #expect(labels.count == Tuning.fields.count)
        for name in labels {
            let changed: Any
            switch Tuning.fields[name]! {
            case .int(let path): changed = Tuning.standard[keyPath: path] + 7
            case .double(let path): changed = Tuning.standard[keyPath: path] + 0.125
            case .range(let path): changed = [Tuning.standard[keyPath: path].lowerBound + 1, Tuning.standard[keyPath: path].upperBound + 2]
            case .doubles(let path): changed = Tuning.standard[keyPath: path].map { $0 + 0.125 }
            }
            let tuned = try Tuning.standard.overriding([name: changed])
            let others = Mirror(reflecting: tuned).children.filter { $0.label != name }.map { "\($0.label!)=\($0.value)" }
            let standard = Mirror(reflecting: Tuning.standard).children.filter { $0.label != name }.map { "\($0.label!)=\($0.value)" }
            #expect(others == standard, "\(name) changed another field")
            #expect(tuned != Tuning.standard, "\(name) changed nothing")
            #expect("\(tuned.values[name]!)" == "\(changed)", "\(name)")
        }
    }

    @Test func overridesFromJSON() throws {
        let tuned = try Tuning.standard.overriding(json: Data(#"{"growth": 1.75, "spanMinimum": 300, "standfirstLengths": [40, 600], "mainMinimum": 450}"#.utf8))
        #expect(tuned.growth == 1.75)
        #expect(tuned.spanMinimum == 300)
        #expect(tuned.standfirstLengths == 40...600)
        #expect(tuned.mainMinimum == 450)
        #expect(try Tuning.standard.overriding(json: Data("{}".utf8)) == Tuning.standard)
    }

    struct Refusal: CustomTestStringConvertible, Sendable {
        var json: String
        var message: String
        var testDescription: String { json }
    }

    static let refusals = [
        Refusal(json: #"{"growht": 1.6}"#, message: "unknown tuning field 'growht'"),
        Refusal(json: #"{"spanMinimum": 300.5}"#, message: "tuning field 'spanMinimum' takes a whole number"),
        Refusal(json: #"{"growth": "1.6"}"#, message: "tuning field 'growth' takes a number"),
        Refusal(json: #"{"standfirstLengths": [700, 50]}"#, message: "tuning field 'standfirstLengths' takes [lowest, highest], whole numbers"),
        Refusal(json: #"[{"growth": 1.6}]"#, message: "tuning overrides must be a JSON object of values by field name"),
    ]

    @Test(arguments: refusals)
    func refusedOverridesNameTheField(_ r: Refusal) {
        #expect(throws: TuningError(description: r.message)) { try Tuning.standard.overriding(json: Data(r.json.utf8)) }
    }

    static let prose = "The council voted on Tuesday to keep the library open for another year, after a long debate about its costs. "
        + "The mayor said the building would be repaired in the spring, and that the reading room would stay open late on Thursdays."
    static let page = Array("""
        <html><head><title>Library stays open</title></head><body><article><h1>Library stays open</h1>
        <p>\(prose)</p><p>\(prose)</p><p>Share this story</p></article></body></html>
        """.utf8)

    /// The text stage decides by the pipeline's tuning: the short line after the last
    /// paragraph goes under the standard `trailingBlockKept` and stays when the tuning keeps
    /// blocks of any length.
    @Test func thePipelineDecidesByTheTuningItIsGiven() throws {
        let standard = try ArticlePipeline().run(Self.page)
        #expect(!standard.textContent.contains("Share this story"))
        var keeping = Tuning.standard
        keeping.trailingBlockKept = 0
        let kept = try ArticlePipeline(tuning: keeping).run(Self.page)
        #expect(kept.textContent.hasSuffix("Share this story"))
        #expect(kept.content.contains("Share this story"))
    }

    /// The span and the classifier decide by it too: a date line before the text goes while the
    /// span marks it as leading; with no span (a minimum more prose than the page has) or no
    /// date lines (none that short), it stays.
    @Test func theSpanAndTheClassifierReceiveIt() throws {
        let bytes = Array(("<html><head><title>Flood report</title></head><body><article><div class=story>"
            + "<h1>Flood report</h1><div class=published>Updated 24.10.2018, 14:03</div>\(MainSpanTests.paragraphs)"
            + "</div></article></body></html>").utf8)
        #expect(!(try ArticlePipeline().run(bytes)).textContent.contains("14:03"))
        var noSpan = Tuning.standard
        noSpan.spanMinimum = 100_000
        #expect(try ArticlePipeline(tuning: noSpan).run(bytes).textContent.contains("Updated 24.10.2018, 14:03"))
        var noDateLines = Tuning.standard
        noDateLines.dateLineLength = 0
        #expect(try ArticlePipeline(tuning: noDateLines).run(bytes).textContent.contains("Updated 24.10.2018, 14:03"))
    }

    /// A copy of a parsed page extracts as the page parsed afresh does (the tuning search parses
    /// each page once and extracts every variant from a copy), and leaves the original whole.
    @Test func aCopyExtractsAsAFreshParse() throws {
        let parsed = ArticlePipeline.parse(Self.page)
        let before = parsed.body?.outerHTML
        let fromCopy = try ArticlePipeline().extract(from: parsed.copy(), url: nil)
        let again = try ArticlePipeline().extract(from: parsed.copy(), url: nil)
        let fresh = try ArticlePipeline().run(Self.page)
        #expect(fromCopy.content == fresh.content && fromCopy.textContent == fresh.textContent)
        #expect(again.content == fresh.content)
        #expect(parsed.body?.outerHTML == before)
    }
}
