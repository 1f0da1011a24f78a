import Foundation
import PiperTestSupport
import Testing
@testable import MediaImport

/// The header readers meet hostile bytes (truncated downloads, corrupt files): every reader
/// must return an answer (possibly nil) and never trap on a bad offset or size.
@Suite(.ownThread) struct SnifferRobustnessTests {
    static let names = realFixtures.map(\.file) + ["two-part-book.zip", "random-bytes.m4b"]

    @Test(arguments: names)
    func mutatedFixturesNeverTrap(_ name: String) throws {
        let temp = try TempHome(inbox: true)
        let original = [UInt8](try Data(contentsOf: fixture(name)))
        let expected = Sniffer.sniff(Array(original.prefix(Sniffer.headLength)))
        var rng = SeededRandom(seedFrom: name)
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
