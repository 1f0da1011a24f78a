// A page of a few lines (a video's page: the player, its caption and a sign-in box) is
// described by its summary: the meta description (Readability's excerpt) shown on the page as
// a paragraph. When the chosen text is that short and holds few of the summary's words, the
// summary is put before it as its first paragraph. It must be shown on the page (a paragraph
// of the body holds it): a description only the search engines see is not the page's text.
import HTML

enum PageDescription {
    /// The summary to put before `text`, or nil. An empty text stays empty: a page with
    /// nothing to read is not given a summary to read. A chosen text under `tuning.shortText`
    /// bytes is no article on its own.
    static func missing(_ excerpt: String?, from text: String, shownIn survey: Survey, _ tuning: Tuning) -> String? {
        guard !text.isEmpty, text.utf8.count < tuning.shortText,
              let summary = ProductDescription.missing(excerpt, from: text, minimum: tuning.productDescriptionMinimum,
                                                       heldShare: tuning.productDescriptionHeld) else { return nil }
        let wanted = Standfirst.collapsedBytes(summary)
        let length = TextTable.nonSpaceCount(summary)
        for e in survey.elements {
            let n = survey.textLength(e)
            guard n >= length, n <= tuning.summaryShownSlack * length else { continue }
            if Standfirst.collapsedBytes(e.textContent).firstRange(of: wanted) != nil { return summary }
        }
        return nil
    }
}
