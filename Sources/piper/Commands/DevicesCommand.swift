import Foundation
import PiperCore
import PiperServer

/// `piper devices [--json] | revoke ID|NAME | token NAME`: who may share to `piper serve`.
struct DevicesCommand: Command {
    static let name = "devices"
    static let abstract = "List the devices that may share to piper serve, revoke one, or make a token."
    static let discussion: String? = """
        'piper devices' lists paired browsers and named tokens, and what each may do: "owner" (the
        owner's browser: connect X, make tokens, remove library items, see every share) or
        "share" (share and see its own shares). 'piper devices revoke ID|NAME' removes one: a
        running server refuses it from the next request; a NAME that means several devices
        removes none and lists them (revoke one by its id). 'piper devices token NAME' prints a
        new share-only bearer token (once) for a script or an iOS Shortcut
        (Authorization: Bearer TOKEN); a name is unique, and never looks like an id or is
        Piper's own (share-token). The server's own share token (share-only too) is in
        share-token in the state folder.
        The devices are in the server's store: pass the same --db or --postgres as 'piper serve'.
        """
    struct Options: OptionGroup {
        var json = Opt.flag("--json", help: "Print the devices as JSON.")
        var db = CredentialsChoice.databaseOption()
        var postgres = CredentialsChoice.postgresOption()
    }
    static let arguments: [ArgumentSpec] = [
        ArgumentSpec(name: "ACTION", help: "revoke or token (default: list).", optional: true),
        ArgumentSpec(name: "NAME", help: "The device's id or name.", optional: true),
    ]

    let json: Bool
    let credentials: CredentialsChoice
    let action: String?
    let target: String?

    init(_ parsed: Parsed<Options>) throws {
        json = parsed.json
        credentials = try CredentialsChoice(database: parsed.db, postgres: parsed.postgres)
        action = parsed.positionals.first
        target = parsed.positionals.dropFirst().first
        switch action {
        case nil, "list": break
        case let given? where given == "revoke" || given == "token":
            guard target != nil else { throw UsageError("'piper devices \(given)' needs a device id or name") }
        case let other?: throw UsageError("Unknown action '\(other)': use revoke or token")
        }
    }

    struct Row: Encodable {
        let id: String, name: String, kind: String, scope: String, created: String
        let lastUsed: String?, lastAddress: String?
    }

    func run() async throws -> ExitCode {
        let registry = try credentials.registry(state: StateFolder.resolve())
        switch (action, target) {
        case ("revoke"?, let name?):
            let found: Device?
            do {
                found = try registry.revoke(name)
            } catch let ambiguous as AmbiguousDevice {
                Output.err(ambiguous.description)
                return .dataError
            }
            guard let removed = found else {
                Output.err("No device '\(name)'; 'piper devices' lists them")
                return .dataError
            }
            Output.err("Revoked \(removed.name) (\(removed.id))")
        case ("token"?, let name?):
            let made: (Device, String)
            do {
                made = try registry.createToken(name: name)
            } catch let error as DeviceNameError {
                throw UsageError(error.description)
            }
            let (device, token) = made
            Output.out(token)
            // Where to send it: the public URL the server recorded in its store, when one did.
            let endpoint = credentials.recordedPublicURL(state: StateFolder.resolve()).map { " with each POST to \($0)/share" } ?? ""
            Output.err("Token for \(device.name) (\(device.id)), share-only; send it as 'Authorization: Bearer <token>'\(endpoint)")
        default:
            let formatter = ISO8601DateFormatter()
            let rows = try registry.devices().map {
                Row(id: $0.id, name: $0.name, kind: $0.kind, scope: $0.scope.rawValue, created: formatter.string(from: $0.created),
                    lastUsed: $0.lastUsed.map(formatter.string(from:)), lastAddress: $0.lastAddress)
            }
            if json {
                try Output.json(rows)
            } else if rows.isEmpty {
                Output.err("No devices yet: 'piper pair' prints a link to pair one")
            } else {
                for row in rows {
                    let use = row.lastUsed.map { "last used \($0) from \(row.lastAddress ?? "?")" } ?? "never used"
                    Output.out("\(row.id)  \(row.kind.padding(toLength: 7, withPad: " ", startingAt: 0))  "
                        + "\(row.scope.padding(toLength: 5, withPad: " ", startingAt: 0))  \(row.created)  \(row.name)  (\(use))")
                }
            }
        }
        return .success
    }
}
