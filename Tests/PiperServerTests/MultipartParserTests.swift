import Foundation
import PiperTestSupport
import Testing
@testable import PiperServer

/// The multipart push parser: the same parts whatever way the body is cut into chunks (network
/// data arrives in pieces), and clear refusals for malformed bodies.
@Suite(.ownThread)
struct MultipartParserTests {
    final class Collector: MultipartSink {
        var parts: [(name: String, file: String?, type: String?, data: [UInt8])] = []
        func partBegan(name: String, fileName: String?, contentType: String?) throws { parts.append((name, fileName, contentType, [])) }
        func partData(_ bytes: ArraySlice<UInt8>) throws { parts[parts.count - 1].data += bytes }
        func partEnded() throws {}
    }

    static let body = Array(("preamble\r\n--b0undary\r\nContent-Disposition: form-data; name=\"url\"\r\n\r\nhttps://a.example/x\r\n"
        + "--b0undary\r\nContent-Disposition: form-data; name=\"file\"; filename=\"ep 1.mp3\"\r\nContent-Type: audio/mpeg\r\n\r\n"
        + "ID3\r\n--b0undar\r\n-not-the-end\r\n"
        + "--b0undary--\r\nepilogue").utf8)

    func parse(_ body: [UInt8], splitAt cuts: [Int]) throws -> Collector {
        var parser = MultipartParser(boundary: "b0undary")
        let sink = Collector()
        var start = 0
        for cut in cuts + [body.count] where cut >= start {
            try body[start..<cut].withUnsafeBytes { try parser.feed($0, into: sink) }
            start = cut
        }
        try parser.finish()
        return sink
    }

    @Test func everySplitGivesTheSameParts() throws {
        for cut in 0...Self.body.count {
            let sink = try parse(Self.body, splitAt: [cut])
            #expect(sink.parts.count == 2, "cut at \(cut)")
            #expect(sink.parts.first?.name == "url" && sink.parts.first?.data == Array("https://a.example/x".utf8), "cut at \(cut)")
            #expect(sink.parts.last?.file == "ep 1.mp3" && sink.parts.last?.type == "audio/mpeg", "cut at \(cut)")
            #expect(sink.parts.last?.data == Array("ID3\r\n--b0undar\r\n-not-the-end".utf8), "cut at \(cut)")
        }
        let byteByByte = try parse(Self.body, splitAt: Array(0..<Self.body.count))
        #expect(byteByByte.parts.count == 2)
    }

    @Test func malformedBodiesAreRefused() {
        #expect(throws: HTTPError.self) { try parse(Array("--b0undary\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx".utf8), splitAt: []) }
        #expect(throws: HTTPError.self) { try parse(Array("--b0undary\r\nContent-Type: text/plain\r\n\r\nx\r\n--b0undary--".utf8), splitAt: []) }
        #expect(throws: HTTPError.self) { try parse(Array("--b0undaryXX\r\n".utf8), splitAt: []) }
    }

    @Test func randomDamageNeverCrashesTheParser() {
        var generator = SeededRandom(seed: 0x6D75_6C74)
        for _ in 0..<300 {
            var body = Self.body
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let index = Int.random(in: 0..<body.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: body[index] = UInt8.random(in: 0...255, using: &generator)
                case 1: body.remove(at: index)
                default: body.insert(contentsOf: Array("\r\n--b0undary".utf8), at: index)
                }
            }
            let cut = Int.random(in: 0...body.count, using: &generator)
            do {
                _ = try parse(body, splitAt: [cut])
            } catch is HTTPError {
                // A refusal with a status and a sentence is the other allowed outcome.
            } catch {
                Issue.record("unexpected \(error) for \(String(decoding: body, as: UTF8.self).debugDescription)")
            }
        }
    }

    @Test func theBoundaryComesFromTheContentType() {
        #expect(MultipartParser.boundary(of: "multipart/form-data; boundary=----WebKitFormBoundaryX1") == "----WebKitFormBoundaryX1")
        #expect(MultipartParser.boundary(of: "multipart/form-data; charset=utf-8; boundary=\"a b\"") == "a b")
        #expect(MultipartParser.boundary(of: "multipart/form-data") == nil)
        #expect(MultipartParser.boundary(of: "application/json") == nil)
    }
}
