/// The library's routes, on when sharing is (they use its credentials): `/media/…` (files and
/// covers), `/feed/…` (the private podcast feed) and `/library` (the page).
struct LibraryRoutes: Sendable {
    let shelf: LibraryShelf
    let media: MediaRoute
    let feed: FeedRoute
    let page: LibraryPageRoute

    init(shelf: LibraryShelf, auth: ShareAuth, publicURL: LateValue) {
        self.shelf = shelf
        media = MediaRoute(shelf: shelf, auth: auth)
        feed = FeedRoute(shelf: shelf, publicURL: publicURL)
        page = LibraryPageRoute(shelf: shelf, auth: auth, publicURL: publicURL)
    }

    /// The route for a path, if it is one of the library's.
    func route(_ path: String) -> (any HTTPResponder)? {
        if path.hasPrefix("/media/") { return media }
        if path.hasPrefix("/feed/") { return feed }
        if LibraryPageRoute.paths.contains(path) { return page }
        return nil
    }
}
