import Foundation
import MediaImport
import PiperCore
import PiperServer

/// `piper library [--json]`: lists the library catalog and the recent rejections; its actions
/// are subcommands with their own options (`library rm ITEM`, `library feed [--revoke]`).
struct LibraryCommand: Command {
    static let name = "library"
    static let abstract = "List the media library: imported items, and recent files that were rejected and why."
    static let discussion: String? = """
        Items live in the library folder (library/ inside the state folder unless --library,
        PIPER_LIBRARY or 'library' in the config file names another; --path prints it), catalogued
        in library.sqlite by paths relative to that folder, so a moved library keeps its items once
        the setting points at it. Files and folders are created as the umask allows (0644/0755
        under 022) unless 'libraryMode' is set. Files that are not media (an HTML error page, an
        empty or unknown file) are moved to rejected/ with the reason shown here. Servers that
        share one library (piper serve --postgres) keep its catalog in PostgreSQL: pass the same
        --postgres to list it.
        """
    struct Options: OptionGroup {
        var json = Opt.flag("--json", help: "Print {\"items\": [...], \"rejections\": [...]} as JSON.")
        var path = Opt.flag("--path", help: "Print the library folder's path and nothing else.")
        var library = LibraryOption.option()
        var postgres = Opt.text("--postgres", placeholder: "URL", help: "The catalog of the servers' shared library, in their PostgreSQL database.")
    }

    static let subcommands: [any Command.Type] = [Remove.self, Feed.self]

    let json: Bool
    let printPath: Bool
    let environment: [String: String]
    let postgres: String?

    init(_ parsed: Parsed<Options>) throws {
        environment = try LibraryOption.environment(parsed.library)
        json = parsed.json
        printPath = parsed.path
        postgres = parsed.postgres
    }

    func run() async throws -> ExitCode {
        if printPath {
            Output.out(StateFolder.resolve(environment: environment).library.path)
            return .success
        }
        let state = StateFolder.resolve(environment: environment)
        let listing = try Self.catalog(postgres: postgres).map { try LibraryListing.read(state: state, catalog: $0) }
            ?? LibraryListing.read(state: state)
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
