import Foundation
import PiperTestSupport
import Testing
@testable import MediaImport

@Suite(.ownThread) struct ArchiveTests {
    @Test func pathRules() throws {
        #expect(try ArchivePath.safeComponents("Book/01 One.mp3").get() == ["Book", "01 One.mp3"])
        #expect(try ArchivePath.safeComponents("./Book//x.mp3").get() == ["Book", "x.mp3"])
        #expect(ArchivePath.safeComponents("../../escaped.mp3") == .failure(.parentComponent))
        #expect(ArchivePath.safeComponents("Book/../../x.mp3") == .failure(.parentComponent))
        #expect(ArchivePath.safeComponents("Book\\..\\x.mp3") == .failure(.parentComponent))
        #expect(ArchivePath.safeComponents("/tmp/absolute-escape.mp3") == .failure(.absolutePath))
        #expect(ArchivePath.safeComponents("C:/Windows/x.mp3") == .failure(.absolutePath))
        #expect(ArchivePath.safeComponents("./") == .failure(.badName))
        #expect(try ArchivePath.safeComponents("..foo/x..mp3").get() == ["..foo", "x..mp3"])
    }

    @Test func twoPartBookUnpacks() throws {
        let temp = try TempHome(inbox: true)
        let out = temp.root.appendingPathComponent("out")
        let result = try ArchiveExtractor.extract(fixture("two-part-book.zip"), into: out)
        #expect(result.files.sorted() == ["Two Part Book/01 Part One.mp3", "Two Part Book/02 Part Two.m4a"])
        #expect(result.refused.isEmpty)
        let data = try Data(contentsOf: out.appendingPathComponent("Two Part Book/01 Part One.mp3"))
        #expect(data == (try Data(contentsOf: fixture("sample.mp3"))))
    }

    @Test func zipSlipWritesNothingOutside() throws {
        let temp = try TempHome(inbox: true)
        let deep = temp.root.appendingPathComponent("a/b/out")
        let result = try ArchiveExtractor.extract(fixture("zip-slip.zip"), into: deep)
        #expect(result.files == ["Good Book/track.mp3"])
        #expect(Set(result.refused.map(\.path)) == ["../../escaped.mp3", "/tmp/absolute-escape.mp3"])
        #expect(temp.files(under: temp.root) == ["a/b/out/Good Book/track.mp3"])
        #expect(!FileManager.default.fileExists(atPath: "/tmp/absolute-escape.mp3"))
    }

    @Test func totalSizeCapRefuses() throws {
        let temp = try TempHome(inbox: true)
        let limits = ArchiveLimits(maxTotalBytes: 30_000)
        #expect(throws: ArchiveError.tooLarge(limit: 30_000)) {
            try ArchiveExtractor.extract(fixture("two-part-book.zip"), into: temp.root.appendingPathComponent("out"), limits: limits)
        }
    }

    @Test func ratioCapRefuses() throws {
        let temp = try TempHome(inbox: true)
        let limits = ArchiveLimits(maxRatio: 1, ratioFloor: 0)
        #expect(throws: ArchiveError.ratioTooHigh(limit: 1)) {
            try ArchiveExtractor.extract(fixture("two-part-book.zip"), into: temp.root.appendingPathComponent("out"), limits: limits)
        }
    }

    @Test func realZipBombIsRefusedByDefaultLimits() throws {
        let temp = try TempHome(inbox: true)
        let bomb = temp.root.appendingPathComponent("bomb.zip")
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
                z.writestr('zeros.mp3', b'\\0' * (40 << 20))
            """
        try #require(try python(script, arguments: [bomb.path]) == 0)
        #expect(throws: ArchiveError.ratioTooHigh(limit: 100)) {
            try ArchiveExtractor.extract(bomb, into: temp.root.appendingPathComponent("out"))
        }
    }

    @Test func nestedZipsUnpackOneLevelAndLinksAreRefused() throws {
        let temp = try TempHome(inbox: true)
        let outer = temp.root.appendingPathComponent("outer.zip")
        let script = """
            import io, sys, zipfile
            def zipped(entries):
                buf = io.BytesIO()
                with zipfile.ZipFile(buf, 'w') as z:
                    for name, data in entries: z.writestr(name, data)
                return buf.getvalue()
            mp3 = open(sys.argv[2], 'rb').read()
            deepest = zipped([('deep.mp3', mp3)])
            inner = zipped([('inner.mp3', mp3 + b'1'), ('deeper.zip', deepest)])
            with zipfile.ZipFile(sys.argv[1], 'w') as z:
                z.writestr('top.mp3', mp3)
                z.writestr('disc2.zip', inner)
                link = zipfile.ZipInfo('link.mp3'); link.create_system = 3; link.external_attr = (0o120777 << 16)
                z.writestr(link, '/etc/passwd')
                dev = zipfile.ZipInfo('dev.mp3'); dev.create_system = 3; dev.external_attr = (0o020666 << 16)
                z.writestr(dev, '')
            """
        try #require(try python(script, arguments: [outer.path, fixture("sample.mp3").path]) == 0)
        let out = temp.root.appendingPathComponent("out")
        let result = try ArchiveExtractor.extract(outer, into: out)
        #expect(result.files.sorted() == ["disc2/inner.mp3", "top.mp3"])
        let refused = Dictionary(result.refused.map { ($0.path, $0.reason) }, uniquingKeysWith: { a, _ in a })
        #expect(refused["link.mp3"]?.contains("symbolic link") == true)
        #expect(refused["dev.mp3"]?.contains("special file") == true)
        #expect(refused["disc2/deeper.zip"]?.contains("nested more than one level") == true)
        #expect(temp.files(under: out) == ["disc2/inner.mp3", "top.mp3"])
    }

    @Test func macOSClutterIsSkippedSilently() throws {
        let temp = try TempHome(inbox: true)
        let zip = temp.root.appendingPathComponent("mac.zip")
        let script = """
            import sys, zipfile
            mp3 = open(sys.argv[2], 'rb').read()
            with zipfile.ZipFile(sys.argv[1], 'w') as z:
                z.writestr('Book/01.mp3', mp3)
                z.writestr('__MACOSX/Book/._01.mp3', b'\\x00\\x05\\x16\\x07junk')
                z.writestr('Book/.DS_Store', b'\\x00\\x00\\x00\\x01Bud1')
            """
        try #require(try python(script, arguments: [zip.path, fixture("sample.mp3").path]) == 0)
        let result = try ArchiveExtractor.extract(zip, into: temp.root.appendingPathComponent("out"))
        #expect(result.files == ["Book/01.mp3"])
        #expect(result.refused.isEmpty)
        #expect(ArchivePath.isClutter(["Book", "._01.mp3"]))
        #expect(!ArchivePath.isClutter(["Book", "01.mp3"]))
    }
}
