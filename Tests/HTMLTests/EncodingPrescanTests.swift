import Foundation
import PiperTestSupport
import Testing
import HTML

/// html5lib-tests encoding/*.dat: `#data` bytes → the encoding a parse ends with (no transport
/// encoding, so BOM → `<meta>` prescan → detection → windows-1252, then a later `<meta>`).
struct EncodingCase {
    var file: String
    var index: Int
    var data: [UInt8]
    var expected: String

    static func loadAll() throws -> [EncodingCase] {
        let dir = TestPaths.html5lib.appendingPathComponent("encoding")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            .filter { $0.hasSuffix(".dat") }.sorted()
        var cases: [EncodingCase] = []
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: dir.appendingPathComponent(file)))
            cases += parse(bytes, file: file)
        }
        return cases
    }

    /// Splits a .dat file at its `#data` / `#encoding` lines (byte-wise: data may be any encoding).
    static func parse(_ bytes: [UInt8], file: String) -> [EncodingCase] {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        if lines.last?.isEmpty == true { lines.removeLast() }
        var cases: [EncodingCase] = []
        var i = 0
        while i < lines.count {
            guard lines[i] == Array("#data".utf8) else { i += 1; continue }
            var data: [[UInt8]] = []
            i += 1
            while i < lines.count, lines[i] != Array("#encoding".utf8) { data.append(lines[i]); i += 1 }
            i += 1
            let expected = i < lines.count ? String(decoding: lines[i], as: UTF8.self) : ""
            cases.append(EncodingCase(file: file, index: cases.count, data: Array(data.joined(separator: [0x0A])),
                                      expected: expected))
            i += 1
        }
        return cases
    }
}

@Suite(.ownThread) struct EncodingPrescanTests {
    @Test func html5libEncodingCorpus() throws {
        let cases = try EncodingCase.loadAll()
        var passed = 0
        for c in cases {
            // The whole parse: a `<meta>` past the prescan's 1024 bytes changes the encoding.
            let got = Document.parse(bytes: c.data).encoding?.name ?? "-"
            let expected = InputDecoder.encoding(forLabel: c.expected) ?? c.expected.lowercased()
            if got == expected {
                passed += 1
            } else {
                let shown = String(decoding: c.data.prefix(200), as: UTF8.self)
                print("FAIL encoding \(c.file) #\(c.index) input \(q(shown)): got \(got), expected \(expected)")
            }
        }
        print("encoding passed \(passed)/\(cases.count)")
        let ratchet = try TestPaths.ratchet("encoding.txt", "encoding")
        #expect(cases.count >= 80, "the corpus was not found or is incomplete")
        #expect(passed >= ratchet, "encoding prescan regressed below the ratchet \(ratchet)")
    }

    @Test func byteOrderMarkAndTransportWinOverMeta() {
        let meta = Array("<meta charset=iso-8859-2>".utf8)
        #expect(InputDecoder.sniff([0xEF, 0xBB, 0xBF] + meta, transportEncoding: "koi8-r").encoding == "utf-8")
        #expect(InputDecoder.sniff(meta, transportEncoding: " KOI8-R ") .encoding == "koi8-r")
        #expect(InputDecoder.sniff(meta, transportEncoding: "bogus").encoding == "iso-8859-2")
        #expect(InputDecoder.sniff(meta, transportEncoding: nil).confidence == .tentative)
    }

    @Test func metaUTF16MeansUTF8AndUserDefinedMeansWindows1252() {
        #expect(InputDecoder.prescan(Array("<meta charset=utf-16le>".utf8)) == "utf-8")
        #expect(InputDecoder.prescan(Array("<meta charset=x-user-defined>".utf8)) == "windows-1252")
        #expect(InputDecoder.sniff(Array("x".utf8), transportEncoding: "utf-16").encoding == "utf-16le")
    }

    @Test func decodesLegacyEncodingsToUTF8() {
        let cases: [(String, [UInt8], String)] = [
            ("windows-1252", [0x80, 0x41, 0xE9, 0x81], "€Aé\u{81}"),
            ("iso-8859-2", [0xA1], "Ą"),
            ("koi8-r", [0xC1], "а"),
            ("shift_jis", [0x82, 0xA0], "あ"),
            ("gbk", [0xC4, 0xE3], "你"),
            ("big5", [0xA4, 0x40], "一"),
            ("euc-kr", [0xB0, 0xA1], "가"),
            ("euc-jp", [0x41, 0xA4, 0xA2, 0xC6, 0xFC, 0x8E, 0xB1, 0x8F, 0xB0, 0xA1, 0xFF], "Aあ日ｱ\u{FFFD}\u{FFFD}"),
            ("windows-1251", [0xC0], "А"),
            ("ibm866", [0x80], "А"),
            ("utf-16be", [0x00, 0x41, 0xD8, 0x3D, 0xDE, 0x00], "A😀"),
            ("utf-16le", [0x41, 0x00], "A"),
            ("x-user-defined", [0x41, 0x80], "A\u{F780}"),
            ("utf-8", [0x41, 0xFF, 0x42], "A\u{FFFD}B"),
        ]
        for (encoding, bytes, expected) in cases {
            let got = String(decoding: InputDecoder.decode(bytes, as: encoding), as: UTF8.self)
            #expect(got == expected, "\(encoding)")
        }
        let decoded = InputDecoder.decode([0xFF, 0xFE, 0x3C, 0x00, 0x70, 0x00], transportEncoding: nil)
        #expect(decoded.encoding == "utf-16le" && decoded.utf8 == Array("<p".utf8) && decoded.confidence == .certain)
    }
}

@Suite(.ownThread) struct UTF8ValidationTests {
    /// The fast validator must agree with the standard library's decoder on every kind of
    /// sequence (valid, overlong, surrogate, too large, truncated), at every alignment.
    @Test func agreesWithTheStandardLibrary() {
        let samples: [[UInt8]] = [
            Array("plain ascii text that is long enough".utf8), Array("é€😀日本".utf8),
            [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0xA0, 0x80], [0xED, 0xA0, 0x80],
            [0xED, 0x9F, 0xBF], [0xF0, 0x8F, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80],
            [0xF4, 0x8F, 0xBF, 0xBF], [0xF5, 0x80, 0x80, 0x80], [0xE2, 0x82], [0x80], [0xFF], [0xC3],
        ]
        for sample in samples {
            for pad in 0..<9 {
                let bytes = Array(repeating: UInt8(0x61), count: pad) + sample + Array(repeating: UInt8(0x62), count: 9 - pad)
                let expected = Array(String(decoding: bytes, as: UTF8.self).utf8)
                #expect(InputDecoder.decode(bytes, as: "utf-8") == expected, "\(sample) at \(pad)")
            }
        }
    }
}
