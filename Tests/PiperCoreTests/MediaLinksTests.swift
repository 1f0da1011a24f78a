import Foundation
import PiperTestSupport
import Testing
@testable import PiperCore

@Suite(.ownThread) struct MediaLinksTests {
    @Test(arguments: ["https://h.example/ep1.mp3", "https://h.example/a/b.M4B?x=1", "http://h.example/book.zip",
                      "https://h.example/v.mov#t=1"])
    func mediaExtensionsAreAccepted(_ link: String) throws {
        #expect(MediaLinks.hasMediaExtension(try #require(URL(string: link))))
    }

    @Test(arguments: ["https://h.example/article", "https://h.example/page.html", "https://h.example/mp3/",
                      "https://h.example/x.mp3.html"])
    func otherLinksAreNotMedia(_ link: String) throws {
        #expect(!MediaLinks.hasMediaExtension(try #require(URL(string: link))))
    }

    @Test func contentTypes() {
        #expect(MediaLinks.isMediaContentType("audio/mpeg"))
        #expect(MediaLinks.isMediaContentType("Video/MP4; codecs=avc1"))
        #expect(MediaLinks.isMediaContentType("application/zip"))
        #expect(!MediaLinks.isMediaContentType("text/html; charset=utf-8"))
        #expect(!MediaLinks.isMediaContentType(nil))
    }

    @Test func dropboxLinksBecomeDirectDownloads() throws {
        let url = try #require(URL(string: "https://www.dropbox.com/s/abc/book.m4b?dl=0"))
        let direct = MediaLinks.directDownloadURL(for: url)
        #expect(direct.absoluteString == "https://www.dropbox.com/s/abc/book.m4b?dl=1")
    }

    @Test func driveFileLinksBecomeDirectDownloads() throws {
        let url = try #require(URL(string: "https://drive.google.com/file/d/FILEID123/view?usp=sharing"))
        #expect(MediaLinks.directDownloadURL(for: url).absoluteString == "https://drive.google.com/uc?export=download&id=FILEID123")
    }
}
