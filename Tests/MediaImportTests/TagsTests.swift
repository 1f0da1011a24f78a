import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import MediaImport

@Suite(.ownThread) struct TagsTests {
    @Test(arguments: realFixtures)
    func fixtureTags(_ facts: FixtureFacts) {
        let tags = TagReader.read(fixture(facts.file), format: facts.format)
        #expect(tags.title == facts.title)
        #expect(tags.author == facts.author)
        #expect(tags.album == facts.album)
        let duration = tags.duration ?? -1
        #expect(abs(duration - facts.duration) < 0.01, "\(facts.file): \(duration)")
    }

    @Test func titleFallsBackToTheFileName() throws {
        let temp = try TempHome(inbox: true)
        let copy = temp.root.appendingPathComponent("My Talk.wav")
        try FileManager.default.copyItem(at: fixture("sample.wav"), to: copy)
        #expect(TagReader.read(copy, format: .wav).title == "My Talk")
    }

    @Test func sha256MatchesKnownVectors() {
        #expect(SHA256.hex(of: []) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(SHA256.hex(of: long) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func sha256OfAFileMatchesSha256sum() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [fixture("sample.flac").path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let expected = try #require(output.split(separator: " ").first.map(String.init))
        #expect(try SHA256.hex(ofFile: fixture("sample.flac")) == expected)
    }
}
