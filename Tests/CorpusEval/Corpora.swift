// The two extraction collections in ../shared/corpus, read page by page:
//   trafilatura-eval  evaldata.json (snippets that must / must not appear) + html/<file>
//   wcxb-dev          ground-truth/NNNN.json (main_content, page type) + html/NNNN.html.gz (or .html)
import Foundation

/// One page of a collection with what its metric needs.
public struct CorpusPage: Sendable {
    public let id: String
    /// The page's URL (wcxb-dev) or nil.
    public let url: String?
    /// wcxb-dev's primary page type; "article" for trafilatura-eval.
    public let pageType: String
    /// trafilatura-eval snippets.
    public let with: [String]
    public let without: [String]
    /// wcxb-dev reference text.
    public let reference: String
    /// Where the saved page is.
    public let htmlPath: String

    /// The saved page's bytes (gunzipped when the file is .gz).
    public func bytes() throws -> [UInt8] {
        if htmlPath.hasSuffix(".gz") { return try Gunzip.read(htmlPath) }
        guard let data = FileManager.default.contents(atPath: htmlPath) else { throw CorpusError.unreadable(htmlPath) }
        return [UInt8](data)
    }
}

public enum CorpusError: Error, CustomStringConvertible {
    case unreadable(String)
    public var description: String {
        switch self { case .unreadable(let path): return "cannot read \(path)" }
    }
}

/// The two collections and how to load them.
public enum Collection: String, CaseIterable, Sendable {
    case trafilaturaEval = "trafilatura-eval"
    case wcxbDev = "wcxb-dev"

    /// `../shared/corpus` from the package root.
    public static func corpusFolder(packageRoot: URL) -> URL {
        packageRoot.appendingPathComponent("../shared/corpus").standardized
    }

    /// `<page>.html.gz`, or `<page>.html` when only that exists (a decompressed copy of the
    /// collection, for tools such as valgrind under which the gzip child process cannot start).
    static func pagePath(_ html: URL) -> String {
        let compressed = html.path + ".gz"
        return FileManager.default.fileExists(atPath: compressed) || !FileManager.default.fileExists(atPath: html.path) ? compressed : html.path
    }

    /// The pages, sorted by id; every `stride`-th one when `stride` > 1.
    public func pages(in corpus: URL, stride: Int = 1) throws -> [CorpusPage] {
        let folder = corpus.appendingPathComponent(rawValue)
        var pages: [CorpusPage]
        switch self {
        case .trafilaturaEval:
            let data = try Data(contentsOf: folder.appendingPathComponent("evaldata.json"))
            guard let entries = try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]] else {
                throw CorpusError.unreadable(folder.appendingPathComponent("evaldata.json").path)
            }
            pages = entries.compactMap { url, entry in
                guard let file = entry["file"] as? String else { return nil }
                return CorpusPage(id: file, url: nil, pageType: "article",
                                  with: entry["with"] as? [String] ?? [], without: entry["without"] as? [String] ?? [],
                                  reference: "", htmlPath: folder.appendingPathComponent("html/\(file)").path)
            }
        case .wcxbDev:
            let truth = folder.appendingPathComponent("ground-truth")
            let names = try FileManager.default.contentsOfDirectory(atPath: truth.path).filter { $0.hasSuffix(".json") }
            pages = try names.map { name in
                let data = try Data(contentsOf: truth.appendingPathComponent(name))
                guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                    throw CorpusError.unreadable(name)
                }
                let id = String(name.dropLast(5))
                let internalInfo = json["_internal"] as? [String: Any]
                let type = (internalInfo?["page_type"] as? [String: Any])?["primary"] as? String ?? "unknown"
                let groundTruth = json["ground_truth"] as? [String: Any]
                return CorpusPage(id: id, url: json["url"] as? String, pageType: type, with: [], without: [],
                                  reference: groundTruth?["main_content"] as? String ?? "",
                                  htmlPath: Collection.pagePath(folder.appendingPathComponent("html/\(id).html")))
            }
        }
        pages.sort { $0.id < $1.id }
        if stride > 1 { pages = pages.enumerated().filter { $0.offset % stride == 0 }.map(\.element) }
        return pages
    }
}

/// gzip decompression through the system's `gzip -dc` (Foundation has no inflate on Linux).
enum Gunzip {
    static func read(_ path: String) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-dc", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CorpusError.unreadable(path) }
        return [UInt8](data)
    }
}
