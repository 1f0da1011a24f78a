import Foundation
import PiperTestSupport
import Testing
@testable import PiperCore

@Suite(.ownThread) struct StateFolderTests {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("piper-state-\(UUID().uuidString)")

    @Test func resolutionOrder() {
        #expect(StateFolder.resolve(environment: ["PIPER_HOME": "/a/b", "XDG_DATA_HOME": "/x", "HOME": "/h"]).url.path == "/a/b")
        #expect(StateFolder.resolve(environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]).url.path == "/x/piper")
        #expect(StateFolder.resolve(environment: ["HOME": "/h"]).url.path == "/h/.local/share/piper")
        #expect(StateFolder.resolve(environment: ["PIPER_HOME": "", "HOME": "/h"]).url.path == "/h/.local/share/piper")
    }

    @Test func createdWithMode0700() throws {
        let state = StateFolder(url: base.appendingPathComponent("nested/piper"))
        try state.ensure()
        let attrs = try FileManager.default.attributesOfItem(atPath: state.url.path)
        #expect((attrs[.posixPermissions] as? Int) == 0o700)
        try state.ensure(state.inbox)
        let inbox = try FileManager.default.attributesOfItem(atPath: state.inbox.path)
        #expect((inbox[.posixPermissions] as? Int) == 0o700)
    }

    @Test func atomicWriteReplacesWith0600AndLeavesNoTempFiles() throws {
        let state = StateFolder(url: base)
        try state.ensure()
        let file = state.cookiesFile
        try StateFolder.writeAtomically(Data("one".utf8), to: file)
        try StateFolder.writeAtomically(Data("two".utf8), to: file)
        #expect(try String(contentsOf: file, encoding: .utf8) == "two")
        let attrs = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attrs[.posixPermissions] as? Int) == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: state.url.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func aFileWhereTheFolderShouldBeIsAnError() throws {
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        let file = base.appendingPathComponent("piper")
        _ = FileManager.default.createFile(atPath: file.path, contents: Data())
        #expect(throws: StateFolderError.self) { try StateFolder(url: file).ensure() }
    }
}
