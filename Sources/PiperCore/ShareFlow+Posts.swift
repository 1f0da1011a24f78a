import Foundation

extension ShareFlow {
    /// A post's step: the next call to its network's API, or, once the answers are all there,
    /// the reading of the post (`PostSource.nextCall` decides).
    mutating func fetchPost(_ source: PostSource, answers: [LoadedPage]) -> [Action] {
        if let next = source.nextCall(after: answers) {
            stage = .fetchingPost(source, answers)
            return [.fetchPost(next)]
        }
        stage = .readingPost
        return [.readPost(FetchedPost(source: source, answers: answers))]
    }

    /// A loaded page that is a post: X's is read as it is; the others' threads come from their
    /// network's API.
    mutating func readPost(_ source: PostSource, page: LoadedPage) -> [Action] {
        guard source.network == .x else { return fetchPost(source, answers: []) }
        stage = .readingPost
        return [.readPost(FetchedPost(source: source, answers: [page]))]
    }
}
