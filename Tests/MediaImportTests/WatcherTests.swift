import Foundation
import PiperTestSupport
import Testing
@testable import MediaImport

/// Collects values from other threads; `@unchecked Sendable`: `lock` guards `values`.
final class Collected<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [T] = []
    private let signal = DispatchSemaphore(value: 0)
    func add(_ v: [T]) { lock.lock(); values += v; lock.unlock(); signal.signal() }
    var all: [T] { lock.lock(); defer { lock.unlock() }; return values }
    /// Waits until `done` holds or the bound passes (a bound, not a timing assertion).
    func wait(until done: ([T]) -> Bool) -> [T] {
        let deadline = Date().addingTimeInterval(20)
        while !done(all), Date() < deadline { _ = signal.wait(timeout: .now() + 0.5) }
        return all
    }
}

@Suite(.ownThread) struct WatcherTests {
    @Test func aFileRenamedIntoTheInboxIsImported() throws {
        let temp = try TempHome(inbox: true)
        try temp.land(fixture("sample.flac"))   // waiting before the watcher starts
        let importer = try LibraryImporter(state: temp.state)
        let seen = Collected<ImportOutcome>()
        let watcher = try importer.watch { seen.add($0) }
        defer { watcher.stop() }
        #expect(seen.wait { $0.count >= 1 }.map(\.fileName) == ["sample.flac"])
        try temp.land(fixture("sample.mp3"), as: "renamed-in.mp3")
        let all = seen.wait { $0.count >= 2 }
        #expect(all.map(\.result) == [.imported(path: "sample.flac"), .imported(path: "renamed-in.mp3")])
        #expect(temp.inboxFiles().isEmpty)
    }

    @Test func watcherReportsCloseWriteAndMovesButNotDotfiles() throws {
        let temp = try TempHome(inbox: true)
        let names = Collected<String>()
        let watcher = InboxWatcher(inbox: temp.state.inbox) { names.add([$0]) }
        try watcher.start()
        defer { watcher.stop() }
        try temp.land(data: Data("x".utf8), as: ".partial-thing")
        try Data("y".utf8).write(to: temp.state.inbox.appendingPathComponent("written.mp3"))
        try temp.land(data: Data("z".utf8), as: "moved.mp3")
        let seen = names.wait { Set($0).isSuperset(of: ["written.mp3", "moved.mp3"]) }
        #expect(Set(seen) == ["written.mp3", "moved.mp3"])
    }

    @Test func decodesEventsAndOverflow() {
        func event(mask: UInt32, name: String) -> [UInt8] {
            let padded = name.isEmpty ? [] : Array(name.utf8) + [UInt8](repeating: 0, count: 16 - name.utf8.count % 16)
            var out: [UInt8] = []
            for word in [UInt32(1), mask, 0, UInt32(padded.count)] { withUnsafeBytes(of: word.littleEndian) { out += $0 } }
            return out + padded
        }
        let bytes = event(mask: 0x80, name: "a.mp3") + event(mask: 0x4000, name: "") + event(mask: 0x8, name: "b.m4b")
        let decoded = InboxWatcherEvents.decode(bytes)
        #expect(decoded.names == ["a.mp3", "b.m4b"])
        #expect(decoded.overflowed)
        #expect(!InboxWatcherEvents.decode(event(mask: 0x80, name: "c.mp3")).overflowed)
    }

    @Test func stopFromInsideTheHandlerDoesNotDeadlock() throws {
        let temp = try TempHome(inbox: true)
        let names = Collected<String>()
        let box = WatcherBox()
        let watcher = InboxWatcher(inbox: temp.state.inbox) { name in
            box.watcher?.stop()
            names.add([name])
        }
        box.watcher = watcher
        try watcher.start()
        try temp.land(data: Data("a".utf8), as: "first.mp3")
        #expect(names.wait { !$0.isEmpty } == ["first.mp3"])
        box.watcher = nil
    }
}

/// `@unchecked Sendable`: set before the watcher starts and cleared after the test's wait.
final class WatcherBox: @unchecked Sendable {
    var watcher: InboxWatcher?
}
