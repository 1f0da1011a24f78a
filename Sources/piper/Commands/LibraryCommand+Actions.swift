import Foundation
import MediaImport
import PiperCore
import PiperServer

extension LibraryCommand {
    /// `piper library rm ITEM`: removes one item, its file and its catalog row.
    struct Remove: Command {
        static let name = "rm"
        static let abstract = "Remove one item from the library: its file and its catalog entry."
        static let discussion: String? = """
            ITEM is the item's path as 'piper library' lists it, or the start of its SHA-256 (8 hex
            digits or more). Sharing the same file again imports it again.
            """
        struct Options: OptionGroup {
            var library = LibraryOption.option()
            var postgres = Opt.text("--postgres", placeholder: "URL", help: "The catalog of the servers' shared library, in their PostgreSQL database.")
        }

        static let arguments: [ArgumentSpec] = [
            ArgumentSpec(name: "ITEM", help: "The item's path or SHA-256 prefix."),
        ]

        let item: String
        let environment: [String: String]
        let postgres: String?

        init(_ parsed: Parsed<Options>) throws {
            environment = try LibraryOption.environment(parsed.library)
            item = parsed.positionals[0]
            postgres = parsed.postgres
        }

        func run() async throws -> ExitCode {
            do {
                let removed = try LibraryImporter(state: StateFolder.resolve(environment: environment),
                                                  catalog: LibraryCommand.catalog(postgres: postgres)).remove(item)
                Output.err("Removed \(removed.path) from the library")
                return .success
            } catch let error as LibraryImporter.RemoveError {
                Output.err("\(error)")
                return .dataError
            }
        }
    }

    /// `piper library feed [--revoke]`: the private podcast feed's URL on stdout, its QR code on
    /// stderr; `--revoke` first replaces the feed's secret.
    struct Feed: Command {
        static let name = "feed"
        static let abstract = "Print the private podcast feed's URL and its QR code."
        static let discussion: String? = """
            The URL is piper serve's /feed/SECRET.xml on the backend 'piper config' names, else on
            the --public-url the server recorded in its store; a podcast app subscribes to it (Add
            by URL). --revoke replaces the secret, so every old
            feed and media link stops working. The secret is in the server's store: pass the same
            --db or --postgres as 'piper serve'.
            """
        struct Options: OptionGroup {
            var revoke = Opt.flag("--revoke", help: "Replace the feed's secret first (old feed and media links stop working).")
            var noQR = Opt.flag("--no-qr", help: "Print only the URL.")
            /// Taken as every library command takes it (an alias such as `piper library --library
            /// DIR` still reaches feed), though the secret lives in the state folder.
            var library = LibraryOption.option()
            var db = CredentialsChoice.databaseOption()
            var postgres = CredentialsChoice.postgresOption()
        }

        let revoke: Bool
        let qr: Bool
        let environment: [String: String]
        let credentials: CredentialsChoice

        init(_ parsed: Parsed<Options>) throws {
            environment = try LibraryOption.environment(parsed.library)
            revoke = parsed.revoke
            qr = !parsed.noQR
            credentials = try CredentialsChoice(database: parsed.db, postgres: parsed.postgres)
        }

        func run() async throws -> ExitCode {
            let state = StateFolder.resolve(environment: environment)
            let secret = FeedSecret(state: state, store: try credentials.store(state: state))
            let current = revoke ? try secret.revoke() : try secret.current()
            if revoke { Output.note("The feed has a new secret; the old feed and media links no longer work.") }
            let config = try loadConfig(environment: environment)
            var base = credentials.base(given: nil, config: config, state: state)
            while base?.hasSuffix("/") == true { base?.removeLast() }
            let url = "\(base ?? "http://HOST:PORT")/feed/\(current).xml"
            Output.out(url)
            if base == nil {
                Output.note("Start piper serve with --public-url, or name the server with 'piper config set backend URL' "
                    + "(the address your phone reaches piper serve at), to get the whole URL.")
            } else if qr, let code = TerminalQR.render(url) {
                Output.err("Scan it with a phone's podcast app (Add by URL):\n\(code)")
            }
            return .success
        }
    }
}
