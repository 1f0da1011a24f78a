import Foundation
import PiperTestSupport
import Testing
import HTML

/// The generated encoding corpus (EncodingCorpusSupport): each language's paragraphs in each of
/// its encodings, parsed as whole pages in four variants.
@Suite(.ownThread) struct EncodingCorpusTests {
    static let cases: [EncodingCorpusCase] = (try? EncodingCorpusCase.loadAll()) ?? []

    @Test func corpusIsThere() {
        #expect(Self.cases.count >= 40, "Fixtures/encoding/cases.txt missing or incomplete")
        let covered = Set(Self.cases.map(\.encoding))
        for encoding in InputDecoder.detectableEncodings + ["utf-8", "gb18030", "iso-2022-jp"] {
            #expect(covered.contains(encoding), "no corpus text in \(encoding)")
        }
    }

    /// (a) A correct `<meta charset>`: the text comes back exactly (so every encoding decodes
    /// on this platform's Foundation, or in-house).
    @Test(arguments: cases) func declaredPageDecodesExactly(_ c: EncodingCorpusCase) throws {
        let document = Document.parse(bytes: c.page(.declared))
        #expect(EncodingCorpusCase.text(of: document) == c.text)
        let expected = InputDecoder.encoding(forLabel: c.encoding)
        #expect(document.encoding?.name == expected && document.encoding?.source == .meta)
    }

    /// (c) The declaration after the first 1024 bytes: the prescan misses it, the tree builder
    /// meets it and the input is decoded again with it (§ 13.2.3.4).
    @Test(arguments: cases) func lateDeclarationChangesTheEncoding(_ c: EncodingCorpusCase) throws {
        let document = Document.parse(bytes: c.page(.lateDeclaration))
        #expect(EncodingCorpusCase.text(of: document) == c.text)
        let name = try #require(document.encoding?.name)
        #expect(name == InputDecoder.encoding(forLabel: c.encoding))
        #expect(document.encoding?.confidence == .certain)
    }

    /// (d) A wrong declaration is obeyed, as Chromium obeys it: the bytes are decoded with the
    /// declared encoding, malformed sequences as U+FFFD. A page that claims gb2312 (or UTF-8)
    /// and is not gets replacement characters, never a quiet windows-1252 reading.
    @Test(arguments: cases) func wrongDeclarationIsObeyedWithReplacementCharacters(_ c: EncodingCorpusCase) throws {
        let declared = try #require(InputDecoder.encoding(forLabel: c.wrongDeclaration))
        let document = Document.parse(bytes: c.page(.wrongDeclaration))
        let text = try #require(EncodingCorpusCase.text(of: document))
        #expect(document.encoding?.name == declared && document.encoding?.source == .meta)
        let expected = String(decoding: InputDecoder.decode(c.body, as: declared), as: UTF8.self)
        // ISO-2022-JP read as gb2312 is ASCII with "<" in it: markup that ends the <p> early.
        let markupInside = expected.contains("<") || expected.contains("&")
        #expect(markupInside || text == expected, "\(Array(text.unicodeScalars.prefix(8))) vs \(Array(expected.unicodeScalars.prefix(8)))")
        #expect(text != c.text)
        if declared != "windows-1252" {
            #expect(text != String(decoding: InputDecoder.decode(c.body, as: "windows-1252"), as: UTF8.self))
        }
        if declared == "utf-8" {
            #expect(text.unicodeScalars.contains("\u{FFFD}"), "malformed input should show U+FFFD")
        }
        if c.encoding == "utf-8", c.language == "fr" {
            #expect(text.contains("Ã©"))  // "é" read as windows-1252, as a browser shows it
        }
    }

    /// (b) No declaration: UTF-8 must be recognised every time; the legacy encodings count
    /// toward the detector's accuracy, held by a ratchet.
    @Test func undeclaredPagesAreDetected() throws {
        var passed = 0, total = 0
        for c in Self.cases {
            let document = Document.parse(bytes: c.page(.undeclared))
            let exact = EncodingCorpusCase.text(of: document) == c.text
            if c.encoding == "utf-8" {
                #expect(exact && document.encoding?.name == "utf-8", "\(c) was not detected as UTF-8")
                #expect(document.encoding?.source == .detected && document.encoding?.confidence == .tentative)
                continue
            }
            total += 1
            if exact { passed += 1 } else { print("detector: \(c) read as \(document.encoding?.name ?? "-")") }
        }
        print("encoding detector passed \(passed)/\(total)")
        let ratchet = try TestPaths.ratchet("encoding-detection.txt", "detected")
        #expect(passed >= ratchet, "the detector regressed below the ratchet \(ratchet)")
    }

    /// The same tree whatever the chunking, also when a late `<meta>` changes the encoding
    /// after several chunks have been parsed.
    @Test func chunkedBytesGiveTheSameTree() throws {
        let sizes = [1, 3, 7, 64, 333, 1000, 4096]
        var compared = 0
        for c in Self.cases where c.language == "ja" || c.language == "ru" || c.language == "fr" {
            for variant in [EncodingCorpusCase.Variant.declared, .undeclared, .lateDeclaration] {
                let bytes = c.page(variant)
                let whole = Document.parse(bytes: bytes)
                for size in sizes {
                    let parser = DocumentParser()
                    var start = 0
                    while start < bytes.count {
                        parser.feed(Array(bytes[start..<min(bytes.count, start + size)]))
                        start += size
                    }
                    let chunked = parser.finish()
                    #expect(dumpTree(chunked.node) == dumpTree(whole.node), "\(c) \(variant) in chunks of \(size)")
                    #expect(chunked.encoding == whole.encoding, "\(c) \(variant) in chunks of \(size)")
                    compared += 1
                }
            }
        }
        #expect(compared > 50)
    }
}
