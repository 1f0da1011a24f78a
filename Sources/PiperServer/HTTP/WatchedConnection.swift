import Synchronization

/// One open connection as `ConnectionGuard` sees it. Made when libmicrohttpd reports the
/// connection open and kept in its socket context, so a request moves its own connection's phase
/// with two atomic stores: no lookup, no lock shared with other connections' requests.
///
/// The sweep reads the phase, then the body bytes, and cuts a connection off only if the phase
/// is still the one it judged (a compare-and-exchange), so a request moving on meanwhile always
/// wins; a stale byte count can only be low for a phase already left.
final class WatchedConnection: Sendable {
    let fd: Int32
    /// The peer's numeric address, formatted once per connection.
    let client: String
    /// Whether this connection counts against its client's limit (not when from a trusted proxy).
    let counted: Bool
    /// The phase (top three bits) and the monotonic nanoseconds it began (the rest).
    private let state: Atomic<UInt64>
    private let bodyBytes = Atomic<Int>(0)

    init(fd: Int32, client: String, counted: Bool, since: UInt64) {
        self.fd = fd
        self.client = client
        self.counted = counted
        state = Atomic(Self.pack(.head, since))
    }

    /// Moves the connection to `phase`, begun at `now` (restarting its clock), unless it is
    /// already cut off: then it returns false, and the sweep, which answered on the socket
    /// itself, is its only writer. `.answering` has no deadline, so it needs no time.
    @discardableResult
    func enter(_ phase: ConnectionWatch.Phase, now: UInt64 = 0) -> Bool {
        bodyBytes.store(0, ordering: .relaxed)
        var old = state.load(ordering: .relaxed)
        let new = Self.pack(phase, now)
        while old != new {
            if Self.phase(old) == .closing { return false }
            let (exchanged, original) = state.compareExchange(expected: old, desired: new, ordering: .releasing)
            if exchanged { return true }
            old = original
        }
        return true
    }

    func received(_ count: Int) {
        bodyBytes.add(count, ordering: .relaxed)
    }

    /// The state as the sweep judges it, and the raw value `cutOff(from:)` checks against.
    func snapshot() -> (watch: ConnectionWatch, raw: UInt64) {
        let raw = state.load(ordering: .acquiring)
        let watch = ConnectionWatch(phase: Self.phase(raw), since: raw & Self.timeMask,
                                    bytes: bodyBytes.load(ordering: .relaxed), fd: fd, client: client, counted: counted)
        return (watch, raw)
    }

    /// Marks the connection closing if it is still in the state `raw` the sweep judged.
    func cutOff(from raw: UInt64) -> Bool {
        state.compareExchange(expected: raw, desired: Self.pack(.closing, raw & Self.timeMask), ordering: .acquiringAndReleasing).exchanged
    }

    private static let timeMask: UInt64 = (1 << 61) - 1

    private static func pack(_ phase: ConnectionWatch.Phase, _ since: UInt64) -> UInt64 {
        let bits: UInt64
        switch phase {
        case .head: bits = 0
        case .body: bits = 1
        case .answering: bits = 2
        case .closing: bits = 3
        case .idle: bits = 4
        case .sending: bits = 5
        }
        return bits << 61 | (since & timeMask)
    }

    private static func phase(_ raw: UInt64) -> ConnectionWatch.Phase {
        switch raw >> 61 {
        case 0: return .head
        case 1: return .body
        case 2: return .answering
        case 4: return .idle
        case 5: return .sending
        default: return .closing
        }
    }
}
