// Tuning+Fields: every `Tuning` value by its field name, so a development run can override any
// of them from a file (`Tuning.overriding(json:)`: `piper extract --tuning FILE`,
// `piper-bench-extraction --tuning FILE`) without a rebuild. A value added to `Tuning` is added
// here too; `TuningTests` fails while the two differ.
import Foundation

extension Tuning {
    /// A field's key path, by the kind of value it holds.
    /// (Key paths to stored properties are immutable values.)
    enum Field: @unchecked Sendable {
        case int(WritableKeyPath<Tuning, Int>)
        case double(WritableKeyPath<Tuning, Double>)
        case range(WritableKeyPath<Tuning, ClosedRange<Int>>)
        case doubles(WritableKeyPath<Tuning, [Double]>)
    }

    /// Every field, by name.
    static let fields: [String: Field] = [
        "candidateMinimum": .int(\.candidateMinimum),
        "growth": .double(\.growth),
        "insideOverlap": .double(\.insideOverlap),
        "elsewhereCandidate": .int(\.elsewhereCandidate),
        "elsewhereGrowth": .double(\.elsewhereGrowth),
        "elsewhereLinkDensity": .double(\.elsewhereLinkDensity),
        "besideCandidate": .int(\.besideCandidate),
        "besideGrowth": .double(\.besideGrowth),
        "listingCandidate": .int(\.listingCandidate),
        "confirmingCandidate": .int(\.confirmingCandidate),
        "confirmingSize": .double(\.confirmingSize),
        "confirmingOverlap": .double(\.confirmingOverlap),
        "confirmingOwnShare": .double(\.confirmingOwnShare),
        "threadItems": .int(\.threadItems),
        "threadOverlap": .double(\.threadOverlap),
        "threadLinkDensity": .double(\.threadLinkDensity),
        "threadGrowth": .double(\.threadGrowth),
        "threadKept": .double(\.threadKept),
        "outsideMainOverlap": .double(\.outsideMainOverlap),
        "mainMinimum": .double(\.mainMinimum),
        "mainShare": .double(\.mainShare),
        "mainLinkDensity": .double(\.mainLinkDensity),
        "mainKept": .double(\.mainKept),
        "proseRepeated": .double(\.proseRepeated),
        "furnitureCandidate": .int(\.furnitureCandidate),
        "furnitureShare": .double(\.furnitureShare),
        "inFooter": .double(\.inFooter),
        "sectionedHeadings": .int(\.sectionedHeadings),
        "sectionedDensity": .int(\.sectionedDensity),
        "sectionedGrowth": .double(\.sectionedGrowth),
        "sectionedSlack": .double(\.sectionedSlack),
        "postHeaderShare": .double(\.postHeaderShare),
        "captionsArticleShare": .double(\.captionsArticleShare),
        "summaryShownSlack": .int(\.summaryShownSlack),
        "panelWrappers": .int(\.panelWrappers),
        "standfirstsPerPage": .int(\.standfirstsPerPage),
        "navigationDepth": .int(\.navigationDepth),
        "postsItems": .int(\.postsItems),
        "postsMass": .double(\.postsMass),
        "postsLinkDensity": .double(\.postsLinkDensity),
        "protectedShare": .double(\.protectedShare),
        "legendLength": .int(\.legendLength),
        "outsideShare": .double(\.outsideShare),
        "promoShare": .double(\.promoShare),
        "promoLinkDensity": .double(\.promoLinkDensity),
        "promoLinks": .int(\.promoLinks),
        "promoLength": .int(\.promoLength),
        "promoLabel": .int(\.promoLabel),
        "articleListLabels": .double(\.articleListLabels),
        "dateLineLength": .int(\.dateLineLength),
        "dateLineDigits": .int(\.dateLineDigits),
        "dateLineDigitShare": .double(\.dateLineDigitShare),
        "mostlyProseLength": .int(\.mostlyProseLength),
        "mostlyProseLinkDensity": .double(\.mostlyProseLinkDensity),
        "mostlyProseShare": .double(\.mostlyProseShare),
        "proseParagraph": .int(\.proseParagraph),
        "proseParagraphLinkDensity": .double(\.proseParagraphLinkDensity),
        "standfirstParagraph": .int(\.standfirstParagraph),
        "inlineSentenceExtra": .int(\.inlineSentenceExtra),
        "inlineSentenceLinkDensity": .double(\.inlineSentenceLinkDensity),
        "introducedListLinkDensity": .double(\.introducedListLinkDensity),
        "repeatedBlock": .int(\.repeatedBlock),
        "carrierShare": .double(\.carrierShare),
        "spanMinimum": .int(\.spanMinimum),
        "substantialShare": .double(\.substantialShare),
        "substantialMinimum": .double(\.substantialMinimum),
        "scriptlessMinimum": .int(\.scriptlessMinimum),
        "scriptlessShare": .double(\.scriptlessShare),
        "dialogMinimum": .int(\.dialogMinimum),
        "dialogShare": .double(\.dialogShare),
        "pageFormShare": .double(\.pageFormShare),
        "containerMinimum": .int(\.containerMinimum),
        "containerLinkDensity": .double(\.containerLinkDensity),
        "innerShare": .double(\.innerShare),
        "repeatParent": .int(\.repeatParent),
        "repeatChild": .int(\.repeatChild),
        "repeatShare": .double(\.repeatShare),
        "listingItems": .int(\.listingItems),
        "listingLargest": .double(\.listingLargest),
        "listingLayoutLinkDensity": .double(\.listingLayoutLinkDensity),
        "postItem": .int(\.postItem),
        "postsLargest": .double(\.postsLargest),
        "unnamedPosts": .int(\.unnamedPosts),
        "copyScriptlessMinimum": .int(\.copyScriptlessMinimum),
        "gridMinimum": .int(\.gridMinimum),
        "gridCards": .int(\.gridCards),
        "gridShare": .double(\.gridShare),
        "teaserCard": .int(\.teaserCard),
        "trailingLinkDensity": .double(\.trailingLinkDensity),
        "trailingBox": .int(\.trailingBox),
        "trailingShare": .double(\.trailingShare),
        "cardHeadline": .int(\.cardHeadline),
        "cardHeadlineLinks": .double(\.cardHeadlineLinks),
        "cardSummary": .int(\.cardSummary),
        "lastParagraph": .int(\.lastParagraph),
        "cardsShare": .double(\.cardsShare),
        "loneCardDivisor": .int(\.loneCardDivisor),
        "trailingBlockKept": .int(\.trailingBlockKept),
        "trailingBlocksShare": .double(\.trailingBlocksShare),
        "trailingHeadingIntroduces": .int(\.trailingHeadingIntroduces),
        "articleRepeatedBlock": .int(\.articleRepeatedBlock),
        "proseBlock": .int(\.proseBlock),
        "repeatedLine": .int(\.repeatedLine),
        "proseRun": .int(\.proseRun),
        "piece": .int(\.piece),
        "standfirstLengths": .range(\.standfirstLengths),
        "standfirstLinkDensity": .double(\.standfirstLinkDensity),
        "standfirstNext": .int(\.standfirstNext),
        "standfirstLookahead": .int(\.standfirstLookahead),
        "standfirstOpening": .int(\.standfirstOpening),
        "productDescriptionMinimum": .int(\.productDescriptionMinimum),
        "productDescriptionHeld": .double(\.productDescriptionHeld),
        "articleBodyMinimum": .int(\.articleBodyMinimum),
        "articleBodyHeld": .double(\.articleBodyHeld),
        "shortText": .int(\.shortText),
        "introDepth": .int(\.introDepth),
        "introLength": .int(\.introLength),
        "blockScorer": .double(\.blockScorer),
        "blockModel": .doubles(\.blockModel),
        "blockScorerEdges": .int(\.blockScorerEdges),
    ]
}

/// Why a set of overrides is refused: the field and what is wrong with it.
public struct TuningError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
}

extension Tuning {
    /// These values with the overrides of a JSON object by field name (`{"growth": 1.6,
    /// "standfirstLengths": [50, 700]}`): a whole number for a count or length, any number for
    /// a share or factor, `[lowest, highest]` for a range. An unknown field, a value of the
    /// wrong kind or a file that is no JSON object is an error naming it.
    public func overriding(json data: Data) throws(TuningError) -> Tuning {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw TuningError(description: "tuning overrides are not JSON: \(error.localizedDescription)")
        }
        guard let overrides = object as? [String: Any] else {
            throw TuningError(description: "tuning overrides must be a JSON object of values by field name")
        }
        return try overriding(overrides)
    }

    /// `overriding(json:)` for overrides already read.
    public func overriding(_ overrides: [String: Any]) throws(TuningError) -> Tuning {
        var tuning = self
        for name in overrides.keys.sorted() {
            guard let field = Tuning.fields[name] else { throw TuningError(description: "unknown tuning field '\(name)'") }
            let value = overrides[name]!
            switch field {
            case .int(let path):
                guard let n = Tuning.number(value), let i = Int(exactly: n) else {
                    throw TuningError(description: "tuning field '\(name)' takes a whole number")
                }
                tuning[keyPath: path] = i
            case .double(let path):
                guard let n = Tuning.number(value), n.isFinite else { throw TuningError(description: "tuning field '\(name)' takes a number") }
                tuning[keyPath: path] = n
            case .range(let path):
                guard let pair = value as? [Any], pair.count == 2, let low = pair.first.flatMap(Tuning.number).flatMap({ Int(exactly: $0) }),
                      let high = pair.last.flatMap(Tuning.number).flatMap({ Int(exactly: $0) }), low <= high else {
                    throw TuningError(description: "tuning field '\(name)' takes [lowest, highest], whole numbers")
                }
                tuning[keyPath: path] = low...high
            case .doubles(let path):
                guard let list = value as? [Any], let numbers = Optional(list.compactMap(Tuning.number)), numbers.count == list.count else {
                    throw TuningError(description: "tuning field '\(name)' takes an array of numbers")
                }
                tuning[keyPath: path] = numbers
            }
        }
        return tuning
    }

    /// Every field's value by name, as `overriding` reads them (ranges as `[lowest, highest]`).
    public var values: [String: Any] {
        var out: [String: Any] = [:]
        for (name, field) in Tuning.fields {
            switch field {
            case .int(let path): out[name] = self[keyPath: path]
            case .double(let path): out[name] = self[keyPath: path]
            case .range(let path): out[name] = [self[keyPath: path].lowerBound, self[keyPath: path].upperBound]
            case .doubles(let path): out[name] = self[keyPath: path]
            }
        }
        return out
    }

    /// A JSON number.
    private static func number(_ value: Any) -> Double? { (value as? NSNumber)?.doubleValue }
}
