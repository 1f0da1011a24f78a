import Foundation
import PiperTestSupport
import Testing
@testable import MediaImport

@Suite(.ownThread) struct ChaptersTests {
    let expected = [Chapter(title: "Chapter One", start: 0), Chapter(title: "Chapter Two", start: 2.5)]

    @Test func m4bChaptersFromTheNeroAtom() throws {
        let movie = try MP4Chapters.readMovie(fixture("sample.m4b"), source: .neroChpl)
        #expect(movie.chapters == expected)
    }

    @Test func m4bChaptersFromTheQuickTimeChapterTrack() throws {
        let movie = try MP4Chapters.readMovie(fixture("sample.m4b"), source: .chapterTrack)
        #expect(movie.chapters == expected)
        #expect(abs((movie.duration ?? 0) - 6.374) < 0.001)
    }

    @Test func filesWithoutChaptersHaveNone() throws {
        for name in ["sample.m4a", "sample.mp4", "sample.mov"] {
            #expect(try MP4Chapters.readMovie(fixture(name)).chapters.isEmpty, "\(name)")
        }
    }

    @Test func chplVersionZeroHasNoReservedWord() {
        let body: [UInt8] = [0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0x98, 0x96, 0x80] + [2] + Array("Hi".utf8)
        #expect(MP4Chapters.parseChpl(body) == [Chapter(title: "Hi", start: 1)])
    }

    @Test func truncatedChplStopsCleanly() {
        let body: [UInt8] = [1, 0, 0, 0, 0, 0, 0, 0, 3] + [0, 0, 0, 0, 0, 0, 0, 0] + [40] + Array("short".utf8)
        #expect(MP4Chapters.parseChpl(body).isEmpty)
    }
}
