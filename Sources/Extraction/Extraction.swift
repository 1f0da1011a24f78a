// Extraction: the two modes Piper extracts articles with.
//   readability  Mozilla Readability.js, exactly (the Readability module).
//   piper        Readability's candidate (found with class names kept) or a second strategy's
//                container, refined: boilerplate removed, block-aware text without captions,
//                classes cleaned afterwards.
// Measuring and deciding are apart: the measuring layer fills plain values (`Evidence`), and
// each decision is a named rule over them (`Rules/ChoiceRules`, `Rules/RoleRules`) with its
// thresholds in one `Tuning` value (`Rules/Tuning`). Files are named for the type they hold:
//   Survey, Survey+Repeats  the page before Readability: text mass, named and semantic
//                           containers, repeated structures, the body's headings and furniture
//   Panels                  closed tabs and accordion folds, shown before anything is scored
//   Standfirst              the summary under the headline, outside Readability's container
//   TextTable, TextMass     text and link lengths from one walk; the text-piece overlap
//   PageSchema              what the page declares itself (JSON-LD types), as evidence
//   Alternative (+ListingIntro)  the containers found before Readability, copied when cleaned
//   Extraction+Choice       the choice against Readability's candidate (`ChoiceRules`)
//   MainSpan                the main-text span: what lies before and after the prose
//   Classifier (+Measures, +Title, +Teasers), ReadAttributes  each element content,
//                           boilerplate or caption (`RoleRules`); teaser grids after the text
//   Vocabulary, NameSet     class/id vocabularies; tag-name sets
//   ProductDescription, ArticleBody, PageDescription  declared text the chosen text lacks
//   BlockText               block-aware plain text
import Foundation
import HTML
import Readability

/// How `Extraction.extract` finds the article.
public enum ExtractionMode: String, Sendable, CaseIterable {
    /// Mozilla Readability.js's algorithm, unchanged (its conformance corpus passes 100/100).
    case readability
    /// Readability's candidate improved: content containers, boilerplate and chrome removed,
    /// block-aware text. The reader HTML keeps figures and their captions; the plain text
    /// (`textContent`) leaves captions and credits out.
    case piper
}

/// Extracts the article of a parsed page in either mode.
public enum Extraction {
    /// Runs `mode` on `document` (which it changes, as Readability does): nil when the page
    /// holds no article. Throws Readability's errors (too many elements, nesting too deep).
    /// The piper mode decides by `tuning`'s thresholds (the readability mode has none).
    public static func extract(_ document: Document, url: String? = nil, mode: ExtractionMode = .piper,
                               options: ReadabilityOptions = .init(), tuning: Tuning = .standard) throws -> Article? {
        switch mode {
        case .readability:
            return try Readability(document, url: url, options: options).parse()
        case .piper:
            return try piper(document, url: url, options: options, tuning: tuning)
        }
    }

    static func piper(_ document: Document, url: String?, options: ReadabilityOptions, tuning: Tuning) throws -> Article? {
        // The page before Readability changes it: the second strategy's containers are copied now.
        let survey = Survey(document, tuning: tuning)
        // Closed tabs and accordion folds are shown before anything is copied or scored.
        for panel in survey.panels { Panels.open(panel) }
        let alternatives = Alternative.find(in: survey)
        let standfirsts = survey.body.map { Standfirst.find(in: survey.table, body: $0, tuning) } ?? []
        // A modal box over the page (a consent banner, a sign-in prompt) is no candidate: it
        // goes before Readability scores the page. (The copies above are cleaned on their own.)
        for dialog in survey.dialogs { dialog.remove() }
        // A page whose text a <noscript> holds is read as a browser without scripts shows it.
        for box in survey.scriptlessPages {
            guard let parent = box.parent else { continue }
            while let child = box.firstChild { _ = parent.insertBefore(child, box) }
            box.remove()
        }
        let schema = PageSchema(document)
        // Readability keeps class names for us; they are cleaned after classification. Its
        // fourth pass (ReadabilityOptions.passes) adds nothing a page's own containers do not:
        // without conditional cleaning it mostly keeps the furniture (wcxb-dev 0.87099 →
        // 0.87136 with three passes, trafilatura-eval unchanged); a page without an alternative
        // keeps it (Mozilla's js-link-replacement finds its text only there).
        var readabilityOptions = options
        readabilityOptions.keepClasses = true
        if alternatives.contains(where: { $0.kind != .footer && $0.kind != .page }) { readabilityOptions.passes = 3 }
        readabilityOptions.serializer = { _ in "" }
        let found = try Readability(document, url: url, options: readabilityOptions).parseWithContent(text: false)
        let title = found?.article.title ?? document.title
        guard let (root, chosenCaptions, posts) = choose(readability: found?.content, alternatives: alternatives, title: title, schema: schema, tuning: tuning) else {
            return nil
        }
        // An article's teaser grids after its text (after the choice, which they must not move).
        if !posts { Classifier.trimTrailingTeasers(root, product: schema.isProduct, tuning) }
        // Captions holding most of the text are the article (a gallery told in its captions):
        // the text keeps them.
        var captions = chosenCaptions
        if !captions.isEmpty,
           Double(captions.reduce(0, { $0 + TextMass.length($1) })) >= tuning.captionsArticleShare * Double(TextMass.length(root)) {
            captions = []
        }
        if root != found?.content { Readability.fixRelativeURIs(in: root, url: url) }
        // Most containers hold no caption: the walk then looks nothing up.
        var text = BlockText.text(of: root, article: !posts, skipping: captions, tuning)
        // The standfirst in the article's header, outside Readability's container.
        if !standfirsts.isEmpty, let found, root == found.content,
           let standfirst = Standfirst.missing(from: root, text: text, among: standfirsts, tuning) {
            standfirst.insert(into: root)
            text = standfirst.text + "\n\n" + text
        }
        // The article's declared text, when the chosen text holds little of it (the page
        // renders the article from a script).
        if !posts, let paragraphs = ArticleBody.missing(schema.articleBody, from: text, tuning) {
            ArticleBody.replace(root, with: paragraphs)
            text = paragraphs.joined(separator: "\n\n")
        }
        // A product's declared description the chosen text left out.
        if !posts, schema.isProduct,
           let description = ProductDescription.missing(schema.productDescription, from: text, minimum: tuning.productDescriptionMinimum,
                                                        heldShare: tuning.productDescriptionHeld) {
            ProductDescription.insert(description, into: root)
            text = description + "\n\n" + text
        }
        // A page of little text (a video's page, where a sign-in box outweighs the player's
        // caption) is described by its summary, when the page shows it.
        if !posts, let description = PageDescription.missing(found?.article.excerpt, from: text, shownIn: survey, tuning) {
            ProductDescription.insert(description, into: root)
            text = description + "\n\n" + text
        }
        CaptionFigures.mark(captions, in: root)
        if !options.keepClasses { Readability.cleanClasses(in: root, preserving: options.classesToPreserve) }
        let content = options.serializer?(root) ?? root.innerHTML
        var article = found?.article ?? Article(
            title: title, byline: nil, dir: nil, lang: document.documentElement?.getAttribute("lang"),
            content: "", textContent: "", length: 0, excerpt: nil, siteName: nil, publishedTime: nil)
        article.content = content
        article.textContent = text
        article.length = Readability.utf16Length(text)
        return article
    }
}
