/// The tests' random source: SplitMix64 from a fixed seed, so a run that fails can be replayed
/// with the same inputs (a test prints or names its seed). Never `SystemRandomNumberGenerator`
/// in a test.
public struct SeededRandom: RandomNumberGenerator {
    public private(set) var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    /// A seed derived from a name (a fixture, a case), stable across runs.
    public init(seedFrom name: String) {
        state = name.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
