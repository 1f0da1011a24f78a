import Foundation
import MediaImport
import PiperCore
import PiperServer

/// `piper library [--json]`: lists the library catalog and the recent rejections;
/// `piper library rm ID` removes one item (its file and its catalog row).
struct LibraryCommand: Command {
    static let name = "library"
    static let abstract = "List the media library: imported items, and recent files that were rejected and why."
    static let discussion: String? = """
        Items live in the library folder (library/ inside the state folder unless --library,
        PIPER_LIBRARY or 'library' in the config file names another; --path prints it), catalogued
        in library.sqlite by paths relative to that folder, so a moved library keeps its items once
        the setting points at it. Files and folders are created as the umask allows (0644/0755
        under 022) unless 'libraryMode' is set. Files that are not media (an HTML error page, an
        empty or unknown file) are moved to rejected/ with the reason shown here.
        rm ID: remove one item, its file and its catalog entry; ID is its path as listed, or the
        start of its SHA-256 (8 hex digits or more).
        feed: print the private podcast feed's URL (piper serve's /feed/SECRET.xml, on the backend
        'piper config' names) and its QR code; --revoke replaces the secret, so every old feed and
        media link stops working.
        """
    struct Options: OptionGroup {
        var json = Opt.flag("--json", help: "Print {\"items\": [...], \"rejections\": [...]} as JSON.")
        var path = Opt.flag("--path", help: "Print the library folder's path and nothing else.")
        var library = LibraryOption.option()
        var revoke = Opt.flag("--revoke", help: "With feed: replace the feed's secret (old links stop working).")
    }

    static let arguments: [ArgumentSpec] = [
        ArgumentSpec(name: "ACTION", help: "rm or feed (none: list the library).", optional: true),
        ArgumentSpec(name: "ID", help: "The item's path or SHA-256 prefix.", optional: true),
    ]

    let json: Bool
    let printPath: Bool
    let removing: String?
    let feed: Bool
    let revoke: Bool

    init(_ parsed: Parsed<Options>) throws {
        try LibraryOption.apply(parsed.library)
        json = parsed.json
        printPath = parsed.path
        if printPath, !parsed.positionals.isEmpty { throw UsageError("--path takes no action") }
        revoke = parsed.revoke
        feed = parsed.positionals.first == "feed"
        switch parsed.positionals.first {
        case nil, "feed":
            removing = nil
            if parsed.positionals.count > 1 { throw UsageError("feed takes no argument") }
        case "rm":
            guard parsed.positionals.count == 2 else { throw UsageError("rm takes one item: its path or SHA-256 prefix") }
            removing = parsed.positionals[1]
        case let other?: throw UsageError("Unknown action '\(other)': use rm or feed")
        }
        if revoke, !feed { throw UsageError("--revoke goes with feed: 'piper library feed --revoke'") }
    }

    func run() async throws -> ExitCode {
        if printPath {
            Output.out(StateFolder.resolve().library.path)
            return .success
        }
        if feed { return try showFeed() }
        if let removing {
            do {
                let item = try LibraryImporter(state: StateFolder.resolve()).remove(removing)
                Output.err("Removed \(item.path) from the library")
                return .success
            } catch let error as LibraryImporter.RemoveError {
                Output.err("\(error)")
                return .dataError
            }
        }
        let listing = try LibraryListing.read(state: StateFolder.resolve())
        if json {
            try Output.json(listing)
            return .success
        }
        if listing.items.isEmpty {
            Output.out("The library is empty.")
        } else {
            Output.out("LIBRARY (\(listing.items.count) item\(listing.items.count == 1 ? "" : "s")):")
            for item in listing.items { Output.out("  " + Self.line(item)) }
        }
        if !listing.rejections.isEmpty {
            Output.out("\nRECENTLY REJECTED:")
            for rejection in listing.rejections {
                let moved = rejection.movedTo.map { " (moved to \($0))" } ?? ""
                Output.out("  \(rejection.fileName): \(rejection.reason)\(moved)")
            }
        }
        return .success
    }

    /// `feed [--revoke]`: the feed URL on stdout, its QR code on stderr.
    private func showFeed() throws -> ExitCode {
        let secret = FeedSecret(state: StateFolder.resolve())
        let current = revoke ? try secret.revoke() : try secret.current()
        if revoke { Output.note("The feed has a new secret; the old feed and media links no longer work.") }
        let config = try loadConfig()
        let base = config.isBackendConfigured ? config.backendBaseURL.absoluteString : nil
        let url = "\(base ?? "http://HOST:PORT")/feed/\(current).xml"
        Output.out(url)
        if base == nil {
            Output.note("Name the server with 'piper config set backend URL' (the address your phone reaches piper serve at) to get the whole URL.")
        } else if let code = TerminalQR.render(url) {
            Output.err("Scan it with a phone's podcast app (Add by URL):\n\(code)")
        }
        return .success
    }

    static func line(_ item: LibraryItem) -> String {
        var parts = ["\(item.path)  \"\(item.title)\""]
        if let author = item.author { parts.append("by \(author)") }
        if let duration = item.duration { parts.append(clock(duration)) }
        if !item.chapters.isEmpty { parts.append("\(item.chapters.count) chapters") }
        return parts.joined(separator: " · ")
    }

    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
    }
}
