import Foundation
import Testing
@testable import MediaImport

/// A small seeded generator, so a failing mutation can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The header readers meet hostile bytes (truncated downloads, corrupt files): every reader
/// must return an answer (possibly nil) and never trap on a bad offset or size.
@Suite struct SnifferRobustnessTests {
    static let names = realFixtures.map(\.file) + ["two-part-book.zip", "random-bytes.m4b"]

    @Test(arguments: names)
    func mutatedFixturesNeverTrap(_ name: String) throws {
        let temp = try TempState()
        let original = [UInt8](try Data(contentsOf: fixture(name)))
        let expected = Sniffer.sniff(Array(original.prefix(Sniffer.headLength)))
        var rng = SplitMix64(state: UInt64(name.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
        let file = temp.root.appendingPathComponent("mutant")
        for round in 0..<40 {
            var bytes = original
            if round % 2 == 0 {
                bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng)))
            } else {
                for _ in 0..<Int.random(in: 1...24, using: &rng) where !bytes.isEmpty {
                    // Hit headers often: half the flips land in the first 4 KiB or the last 4 KiB.
                    let i: Int
                    switch Int.random(in: 0..<4, using: &rng) {
                    case 0: i = Int.random(in: 0..<min(4096, bytes.count), using: &rng)
                    case 1: i = Int.random(in: max(0, bytes.count - 4096)..<bytes.count, using: &rng)
                    default: i = Int.random(in: 0..<bytes.count, using: &rng)
                    }
                    bytes[i] = Bool.random(using: &rng) ? 0xFF : UInt8.random(in: 0...255, using: &rng)
                }
            }
            try Data(bytes).write(to: file)
            let head = Array(bytes.prefix(Sniffer.headLength))
            let verdict = Sniffer.sniff(head)
            if round % 2 == 0, bytes.count >= Sniffer.headLength {
                #expect(verdict == expected, "\(name) cut at \(bytes.count)")
            }
            for format in MediaFormat.allCases { _ = AudioDuration.read(file, format: format) }
            _ = CAFDuration.read(file)
            _ = try? MP4Chapters.readMovie(file)
        }
    }
}
