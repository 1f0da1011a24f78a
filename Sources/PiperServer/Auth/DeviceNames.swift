import Foundation

/// The rules for a device's or token's name. A name is how the owner tells devices apart and
/// how `piper devices revoke NAME` picks one, and it is the key of a device's rate-limit bucket,
/// idempotency keys and shares, so it is unique (case aside), never the shape of an id (a name
/// that reads as an id would let `revoke` take the wrong device) and never a name Piper uses
/// itself (`share-token` is the share token's bucket and keys).
public enum DeviceNames {
    /// Names with a meaning inside Piper: the share token's, the feed key's access-log name,
    /// the server secrets'.
    public static let reserved: Set<String> = ["share-token", "feed", "feed-secret"]
    /// The longest name kept, in characters.
    static let maxLength = 60

    /// A name given by a person (a token's, a pairing form's): trimmed, without control or
    /// invisible format characters, at most `maxLength` characters ("device" when nothing is
    /// left), or why it cannot be one.
    /// `ids` are the devices' ids (whatever form they take): a name may not be one of them.
    static func checked(_ raw: String, ids: [String]) throws -> String {
        let name = String(VisibleText.of(raw).trimmingCharacters(in: .whitespacesAndNewlines).prefix(maxLength))
            .trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return "device" }
        if isReserved(name) { throw DeviceNameError.reserved(name) }
        if looksLikeID(name) || ids.contains(where: { $0.lowercased() == name.lowercased() }) { throw DeviceNameError.idShaped(name) }
        return name
    }

    static func isReserved(_ name: String) -> Bool { reserved.contains(name.trimmingCharacters(in: .whitespaces).lowercased()) }

    /// True for a name made of hex digits and dashes with at least 8 digits: the shape of the
    /// ids Piper makes (8 hex digits) and of UUIDs.
    static func looksLikeID(_ name: String) -> Bool {
        let digits = name.unicodeScalars.filter { $0.properties.isASCIIHexDigit }.count
        return digits >= 8 && name.unicodeScalars.allSatisfy { $0.properties.isASCIIHexDigit || $0 == "-" }
    }

    /// `name`, or `name 2`, `name 3`, … : the first not taken (case aside) among `taken`.
    static func unique(_ name: String, among taken: [String]) -> String {
        let lowered = Set(taken.map { $0.lowercased() })
        var candidate = name, number = 2
        while lowered.contains(candidate.lowercased()) {
            candidate = "\(name) \(number)"
            number += 1
        }
        return candidate
    }

    /// The devices `idOrName` may mean: the one with that id, and those with that name (case
    /// aside). A database from before these rules may hold a name that is another device's id,
    /// or two names that differ only in case; then more than one is found.
    static func candidates(_ idOrName: String, in devices: [Device]) -> [Device] {
        let wanted = idOrName.trimmingCharacters(in: .whitespaces).lowercased()
        return devices.filter { $0.id.lowercased() == wanted || $0.name.lowercased() == wanted }
    }

    /// The name an imported device (from the former `devices.json`) is kept under: its own,
    /// unless another device has it exactly (then `name 2`, …) or it is reserved (then
    /// `name (renamed)`). Names that differ only in case are kept as they were.
    static func importedName(_ name: String, among taken: [String]) -> String {
        let base = isReserved(name) ? "\(name) (renamed)" : name
        var candidate = base, number = 2
        while taken.contains(candidate) {
            candidate = "\(base) \(number)"
            number += 1
        }
        return candidate
    }

    /// The new names for devices whose names became reserved (a database from before these
    /// rules): `share-token` becomes `share-token (renamed)`, unique among the rest.
    static func renames(of devices: [(id: String, name: String)]) -> [(id: String, name: String)] {
        var taken = devices.map(\.name)
        var renamed: [(id: String, name: String)] = []
        for device in devices where isReserved(device.name) {
            let name = unique("\(device.name) (renamed)", among: taken)
            taken.append(name)
            renamed.append((device.id, name))
        }
        return renamed
    }
}

/// A name a device or token cannot have (exit 64 from the CLI, 400 from the server).
public enum DeviceNameError: Error, Equatable, CustomStringConvertible {
    case reserved(String)
    case idShaped(String)

    public var description: String {
        switch self {
        case .reserved(let name): return "The name '\(name)' is Piper's own; choose another name"
        case .idShaped(let name):
            return "The name '\(name)' looks like a device id, which 'piper devices revoke' would confuse; choose a name with other letters"
        }
    }
}

/// `piper devices revoke NAME` where NAME means several devices: none is removed (exit 65).
public struct AmbiguousDevice: Error, CustomStringConvertible {
    public let given: String
    public let candidates: [Device]

    public var description: String {
        "'\(given)' names \(candidates.count) devices: "
            + candidates.map { "\($0.name) (id \($0.id), \($0.kind))" }.joined(separator: ", ")
            + "; revoke one by its id"
    }
}
