import Foundation
import PiperTestSupport
import Testing
import HTML

/// The detector and the sources of a document's encoding, case by case (the corpus-wide
/// numbers are in EncodingCorpusTests).
@Suite(.ownThread) struct EncodingDetectionTests {
    @Test func asciiIsLeftToTheDefault() {
        let document = Document.parse(bytes: Array("<p>plain text</p>".utf8))
        #expect(document.encoding == DocumentEncoding(name: "windows-1252", source: .default, confidence: .tentative))
        #expect(InputDecoder.detect(Array("plain".utf8)) == nil)
    }

    @Test func iso2022JPIsRecognisedByItsEscapes() {
        let bytes: [UInt8] = [0x1B, 0x24, 0x42, 0x24, 0x22, 0x1B, 0x28, 0x42]  // ESC $ B あ ESC ( B
        #expect(InputDecoder.detect(bytes) == "iso-2022-jp")
        #expect(String(decoding: Document.parse(bytes: bytes).node.textContent.utf8, as: UTF8.self).contains("あ"))
    }

    @Test func utf8CutAtTheDetectionLimitIsStillUTF8() {
        let text = String(repeating: "é", count: InputDecoder.detectionLimit)  // two bytes each
        var bytes = Array("x".utf8) + Array(text.utf8)  // the limit now falls inside a character
        bytes += Array("<p>".utf8)
        #expect(InputDecoder.detect(bytes) == "utf-8")
    }

    @Test(arguments: [
        ("Příliš žluťoučký kůň úpěl ďábelské ódy.", "windows-1250", "cp1250"),
        ("Съешь же ещё этих мягких французских булок.", "koi8-r", "koi8-r"),
        ("Съешь же ещё этих мягких французских булок.", "windows-1251", "cp1251"),
        ("Ξεσκεπάζω την ψυχοφθόρα βδελυγμία.", "iso-8859-7", "iso-8859-7"),
        // English whose only non-ASCII bytes are typographic quotes, which could pass for
        // Shift_JIS or EUC-KR characters.
        ("It’s a “test”, they said — don’t worry, it’ll work’s fine…", "windows-1252", "cp1252"),
        ("Don’t", "windows-1252", "cp1252"),
    ])
    func shortSentencesAreDetected(_ text: String, _ encoding: String, _ iconvName: String) throws {
        let bytes = try encode(text, iconvName)
        let detected = try #require(InputDecoder.detect(bytes))
        #expect(InputDecoder.decode(bytes, as: detected) == Array(text.utf8), "read as \(detected)")
    }

    @Test func theLanguageHintPicksAmongEqualReadings() throws {
        // Russian reads the same in KOI8-R and KOI8-U; windows-1251 is another reading entirely.
        let bytes = try encode("Привет, мир.", "koi8-r")
        let page = Array("<html lang=\"ru\"><p>".utf8) + bytes
        let document = Document.parse(bytes: page)
        #expect(document.node.textContent.contains("Привет"))
        #expect(document.encoding?.source == .detected)
    }

    @Test func aLateMetaChangesTheEncodingAndSaysSo() {
        let filler = "<!--" + String(repeating: "x", count: 1100) + "-->"
        // "caf\u{E9}" reads as French windows-1252 to the detector; the late meta says windows-1251.
        let page = Array("<html><head>\(filler)<meta charset=windows-1251></head><body>caf".utf8) + [0xE9]
        let parser = DocumentParser()
        for byte in page { parser.feed([byte]) }
        let document = parser.finish()
        #expect(document.encoding == DocumentEncoding(name: "windows-1251", source: .changed, confidence: .certain))
        #expect(document.node.textContent.hasSuffix("cafй"))
    }

    @Test func theTransportWinsAndIsCertain() {
        let document = Document.parse(bytes: Array("<meta charset=koi8-r>é".utf8), options: ParseOptions(transportEncoding: "utf-8"))
        #expect(document.encoding == DocumentEncoding(name: "utf-8", source: .transport, confidence: .certain))
    }

    @Test func topLevelDomains() {
        #expect(ParseOptions.topLevelDomain(ofHost: "www.example.co.jp") == "jp")
        #expect(ParseOptions.topLevelDomain(ofHost: "127.0.0.1") == nil)
        #expect(ParseOptions.topLevelDomain(ofHost: nil) == nil)
    }

    /// Encodes with iconv, independent of the decoders under test.
    private func encode(_ text: String, _ encoding: String) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/iconv")
        process.arguments = ["-f", "UTF-8", "-t", encoding]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "iconv -t \(encoding) failed")
        return [UInt8](data)
    }
}
