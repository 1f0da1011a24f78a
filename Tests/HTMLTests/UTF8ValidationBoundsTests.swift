import Foundation
import PiperTestSupport
import Testing
@testable import HTML

/// UTF-8 validation looks at the buffer it is given and nothing after it: a run of ASCII that
/// ends exactly at the end (after a 32-byte stride) once read the byte that followed, so the
/// same page was UTF-8 or "not UTF-8" (and then detected as Shift_JIS) depending on what
/// memory lay behind its bytes.
@Suite(.ownThread) struct UTF8ValidationBoundsTests {
    /// `bytes` validated as the first `bytes.count` bytes of a buffer followed by bytes that
    /// are never valid UTF-8.
    static func validWithGarbageAfter(_ bytes: [UInt8]) -> Bool {
        let buffer = bytes + [UInt8](repeating: 0xFF, count: 64)
        return buffer.withUnsafeBufferPointer { InputDecoder.isValidUTF8($0.baseAddress!, bytes.count) }
    }

    @Test(arguments: [1, 8, 31, 32, 33, 40, 64, 96, 4096])
    func asciiEndingAnywhereIsValid(_ length: Int) {
        #expect(Self.validWithGarbageAfter([UInt8](repeating: 0x61, count: length)))
    }

    /// The shape of the page that exposed it: a non-ASCII character, then ASCII in whole
    /// 32-byte strides up to the end.
    @Test(arguments: [32, 64, 320])
    func asciiStridesAfterACharacterAreValid(_ ascii: Int) {
        let bytes = Array("é".utf8) + [UInt8](repeating: 0x20, count: ascii)
        #expect(Self.validWithGarbageAfter(bytes))
        #expect(Self.validWithGarbageAfter(Array("€".utf8) + bytes))
    }

    @Test func malformedInputIsStillRejected() {
        #expect(!Self.validWithGarbageAfter([UInt8](repeating: 0x61, count: 32) + [0xC3]))
        #expect(!Self.validWithGarbageAfter([0xC3] + [UInt8](repeating: 0x61, count: 32)))
        #expect(!Self.validWithGarbageAfter([UInt8](repeating: 0x61, count: 40) + [0xFF]))
    }
}
