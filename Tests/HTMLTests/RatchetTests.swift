import Foundation
import PiperTestSupport
import Testing

/// The ratchet files fail loudly: a lost file or key is an error, never a pass.
@Suite(.ownThread) struct RatchetTests {
    @Test func aMissingRatchetFileIsAnError() {
        #expect(throws: RatchetError.self) { try Ratchet.minimum("tokenizer", in: "Tests/HTMLTests/Ratchets/no-such-file.txt") }
        #expect(throws: RatchetError.self) { try Ratchet.knownFailures(in: "Tests/HTMLTests/Ratchets/no-such-file.txt") }
    }

    @Test func aMissingKeyIsAnError() {
        #expect(throws: RatchetError.self) { try Ratchet.minimum("no-such-key", in: "Tests/HTMLTests/Ratchets/tokenizer.txt") }
    }

    @Test func theCommittedRatchetsRead() throws {
        #expect(try Ratchet.minimum("tokenizer", in: "Tests/HTMLTests/Ratchets/tokenizer.txt") > 6000)
        #expect(try Ratchet.knownFailures(in: "Tests/HTMLTests/Ratchets/tokenizer-known-failures.txt").isEmpty)
    }
}
