import Foundation
import PiperTestSupport
import Testing
@testable import MediaImport

@Suite(.ownThread) struct SnifferTests {
    func head(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: fixture(name)).prefix(Sniffer.headLength))
    }

    @Test(arguments: realFixtures)
    func realFixtureSniffsAsItsFormat(_ facts: FixtureFacts) throws {
        #expect(Sniffer.sniff(try head(facts.file)) == .media(facts.format))
    }

    @Test func zipFixturesSniffAsZip() throws {
        #expect(Sniffer.sniff(try head("two-part-book.zip")) == .media(.zip))
        #expect(Sniffer.sniff(try head("zip-slip.zip")) == .media(.zip))
    }

    @Test func impostorsAreRejectedWithTheirReason() throws {
        for impostor in impostors {
            guard case .rejected(let reason) = Sniffer.sniff(try head(impostor.file)) else {
                Issue.record("\(impostor.file) was accepted"); continue
            }
            #expect(reason.hasPrefix(impostor.reason), "\(impostor.file): \(reason)")
        }
    }

    @Test func m4bBrandIsAnAudiobook() {
        let ftyp: [UInt8] = [0, 0, 0, 0x18] + Array("ftypM4B ".utf8) + [0, 0, 2, 0] + Array("M4B isom".utf8)
        #expect(Sniffer.sniff(ftyp) == .media(.m4b))
    }

    @Test func specificBrandWinsOverGenericMajor() {
        let ftyp: [UInt8] = [0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomM4A ".utf8)
        #expect(Sniffer.sniff(ftyp) == .media(.m4a))
    }

    @Test func unknownMP4BrandIsRejected() {
        let ftyp: [UInt8] = [0, 0, 0, 0x14] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1".utf8)
        guard case .rejected(let reason) = Sniffer.sniff(ftyp) else { Issue.record("heic accepted"); return }
        #expect(reason.contains("heic"))
    }

    @Test func mpegFrameSyncNeedsASecondFrame() {
        // MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, no padding: 417-byte frames.
        let frame: [UInt8] = [0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0, count: 413)
        #expect(Sniffer.sniff(frame + frame + frame) == .media(.mp3))
        let lone = frame + [UInt8](repeating: 0x41, count: 5000)
        #expect(Sniffer.sniff(lone) != .media(.mp3))
    }

    @Test func adtsFramesAreAAC() {
        // ADTS, AAC LC, 44.1 kHz, stereo, 100-byte frames.
        let length = 100
        var header: [UInt8] = [0xFF, 0xF1, 0x50, 0x80, 0, 0, 0xFC]
        header[3] |= UInt8((length >> 11) & 0x03)
        header[4] = UInt8((length >> 3) & 0xFF)
        header[5] = UInt8((length & 0x07) << 5) | 0x1F
        let frame = header + [UInt8](repeating: 0x21, count: length - 7)
        #expect(Sniffer.sniff(frame + frame + frame) == .media(.aac))
    }

    @Test func containerMagics() {
        let pad = [UInt8](repeating: 0, count: 32)
        #expect(Sniffer.sniff(Array("FORM\0\0\0\u{8}AIFC".utf8) + pad) == .media(.aiff))
        #expect(Sniffer.sniff(Array("RIFF\0\0\0\0WAVE".utf8) + pad) == .media(.wav))
        #expect(Sniffer.sniff(Array("RIFF\0\0\0\0AVI ".utf8) + pad) != .media(.wav))
        #expect(Sniffer.sniff(Sniffer.asfGUID + pad) == .media(.asf))
        #expect(Sniffer.sniff(Array("caff".utf8) + pad) == .media(.caf))
        #expect(Sniffer.sniff([0x50, 0x4B, 0x05, 0x06] + pad) == .rejected("empty zip archive (no files inside)"))
    }

    @Test func oggCodecsAreTold() {
        func page(_ packet: [UInt8]) -> [UInt8] {
            Array("OggS".utf8) + [0, 2] + [UInt8](repeating: 0, count: 20) + [1, UInt8(packet.count)] + packet
        }
        #expect(Sniffer.sniff(page([1] + Array("vorbis".utf8) + [0, 0])) == .media(.oggVorbis))
        #expect(Sniffer.sniff(page(Array("OpusHead".utf8) + [1, 2])) == .media(.oggOpus))
        #expect(Sniffer.sniff(page(Array("Speex   ".utf8))) == .rejected("Ogg stream that is neither Vorbis, Opus nor FLAC"))
    }

    @Test func textAndHTMLAreNamed() {
        #expect(Sniffer.sniff(Array("  \n<HTML><body>nope</body></HTML>".utf8)) == .rejected("HTML page (probably an error or login page), not media"))
        #expect(Sniffer.sniff(Array("Access denied. Please log in.\n".utf8)) == .rejected("text file, not media"))
        #expect(Sniffer.sniff(Array("Grüße, café ✓".utf8)) == .rejected("text file, not media"))
        #expect(Sniffer.sniff([]) == .rejected("empty file (0 bytes)"))
    }

    @Test func id3BeforeFLACIsFLAC() {
        let tag: [UInt8] = Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 4] + [0, 0, 0, 0]
        #expect(Sniffer.sniff(tag + Array("fLaC".utf8) + [UInt8](repeating: 0, count: 40)) == .media(.flac))
        #expect(Sniffer.sniff(tag + [0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0, count: 40)) == .media(.mp3))
    }
}
