import Foundation
import MediaImport
import PiperCore

enum BenchImport {
    /// Lands `count` copies of `fixture` (each with a distinct tail, so none is a duplicate) by
    /// rename into a fresh inbox, imports them in one run and reports the rate.
    static func run(count: Int, fixture: URL) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("piper-bench-import-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let state = StateFolder(url: root.appendingPathComponent("home"))
        try state.ensure(state.inbox)
        let base = try Data(contentsOf: fixture)
        let ext = fixture.pathExtension
        for i in 0..<count {
            let staging = root.appendingPathComponent("staging")
            try (base + Data("bench \(i)".utf8)).write(to: staging)
            try FileManager.default.moveItem(at: staging, to: state.inbox.appendingPathComponent("item-\(i).\(ext)"))
        }
        let importer = try LibraryImporter(state: state)
        let start = DispatchTime.now()
        let outcomes = try importer.importPending()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let imported = outcomes.filter { if case .imported = $0.result { return true } else { return false } }.count

        // Second pass: the same content again, so every file is a duplicate (sniff + hash + lookup).
        for i in 0..<count {
            let staging = root.appendingPathComponent("staging")
            try (base + Data("bench \(i)".utf8)).write(to: staging)
            try FileManager.default.moveItem(at: staging, to: state.inbox.appendingPathComponent("again-\(i).\(ext)"))
        }
        let dupStart = DispatchTime.now()
        let duplicates = try importer.importPending().count
        let dupSeconds = Double(DispatchTime.now().uptimeNanoseconds - dupStart.uptimeNanoseconds) / 1e9

        return String(format: "import: %d files of %d bytes (%@) imported=%d in %.3f s = %.0f files/s; duplicates: %d in %.3f s = %.0f files/s",
                      count, base.count, fixture.lastPathComponent, imported, seconds, Double(count) / seconds,
                      duplicates, dupSeconds, Double(duplicates) / dupSeconds)
    }
}
