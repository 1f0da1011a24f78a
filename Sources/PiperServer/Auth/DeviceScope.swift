import Foundation

/// What a credential may do. The owner's browser (paired with `piper pair`) and `piper` on the
/// server act as the owner: connecting or forgetting X, making tokens, removing library items,
/// seeing every device's shares. Everything else may only share and read its own shares: a
/// token (the Shortcut's, a script's), the server's share token, and a browser paired with
/// `piper pair --share-only` (someone else's phone).
public enum DeviceScope: String, Sendable, Codable, CaseIterable {
    case owner
    case share

    /// The refusal an owner action gives a share-only credential (403).
    static func ownerOnly(_ credential: Credential) -> HTTPError {
        let who = credential.isBrowser ? "this browser" : "this token"
        return HTTPError(403, "This needs the owner's browser (paired with 'piper pair') or piper on the server; \(who) may only share")
    }
}

extension Credential {
    /// The credential's scope: the share token is share-only; a device has its own.
    public var scope: DeviceScope {
        switch self {
        case .shareToken: return .share
        case .device(let device): return device.scope
        }
    }

    public var isOwner: Bool { scope == .owner }

    var isBrowser: Bool {
        if case .device(let device) = self { return device.kind == "browser" }
        return false
    }

    /// Whether this credential may see `record`: the owner sees every share, anyone else its own.
    func mayRead(_ record: ShareRecord) -> Bool { isOwner || record.device == name }
}
