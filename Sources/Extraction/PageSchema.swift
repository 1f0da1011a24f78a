// JSON-LD: what a page says it is, from its <script type="application/ld+json"> blocks (read
// before Readability removes scripts). The schema.org types of the top-level objects (and of
// an @graph's members) are evidence for the container choice: a page that declares a
// DiscussionForumPosting or QAPage is a thread, whose posts all belong to the content.
import Foundation
import HTML

struct PageSchema {
    /// The top-level schema.org type names, without a vocabulary prefix ("Product",
    /// "NewsArticle").
    private(set) var types: Set<String> = []

    static let threadTypes: Set<String> = ["DiscussionForumPosting", "QAPage", "SocialMediaPosting"]
    static let productTypes: Set<String> = ["Product", "ProductGroup", "IndividualProduct", "ProductModel"]

    /// The page declares a forum thread or a question with its answers.
    var isThread: Bool { !types.isDisjoint(with: PageSchema.threadTypes) }

    /// The longest `description` of a declared product (JSON-LD), as given.
    private(set) var productDescription: String?

    /// The longest `articleBody` the page declares (an article's whole text, which some pages
    /// render only from a script), as given.
    private(set) var articleBody: String?

    /// The page's Open Graph type (`og:type`), lowercased.
    private(set) var openGraphType: String?

    /// The page declares one product (JSON-LD, or `og:type` product): a shop's product page,
    /// whose customers' reviews are not its description.
    var isProduct: Bool {
        !types.isDisjoint(with: PageSchema.productTypes) || openGraphType.map { $0.hasPrefix("product") } == true
    }

    /// A page that declares nothing.
    init() {}

    /// Reads every JSON-LD block of `document`; a block that does not parse is skipped.
    init(_ document: Document) {
        // The arena read in order (the parser's, which puts a page's scripts and metas in
        // document order), one record after the next, instead of a walk of the whole tree; an
        // element no longer in the page (a removed dialog's) is passed over.
        let scriptName = PageSchema.script, metaName = PageSchema.meta
        let page = document.node
        for index in 0..<Int32(document.indexLimit) {
            let name = document.nameID(at: index)
            guard name == scriptName || name == metaName else { continue }
            let script = document.node(at: index)
            guard page.contains(script) else { continue }
            if name == metaName {
                if openGraphType == nil, let property = script.getAttribute("property") ?? script.getAttribute("name"),
                   property.lowercased() == "og:type" {
                    openGraphType = script.getAttribute("content")?.lowercased()
                }
                continue
            }
            guard let kind = script.getAttribute("type"), kind.lowercased().containsBytes("ld+json") else { continue }
            // A block naming none of the types or keys read here declares nothing this reads:
            // it is not parsed (most blocks are an article's metadata or an organization's).
            // A block of one text (as parsed) is searched in place, before any string is made.
            let only = document.firstChild(at: index)
            if only >= 0, document.nextSibling(at: only) < 0, document.kind(at: only) == .text,
               !document.withTextUTF8(at: only, PageSchema.namesAReadType) { continue }
            let source = script.textContent
            guard PageSchema.namesAReadType(source), let data = source.data(using: .utf8),
                  let json = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { continue }
            collect(json)
        }
    }

    static let meta = Document.knownNameID("meta")!
    static let script = Document.knownNameID("script")!

    /// The names a block must hold for this to read anything from it: the thread types,
    /// "Product" (in every product type's name) and "articleBody", as bytes.
    static let readNames: [[UInt8]] = (Array(threadTypes) + ["Product", "articleBody"]).sorted().map { Array($0.utf8) }
    /// Whether a byte starts one of `readNames`.
    static let readFirstBytes: [Bool] = (0..<256).map { (b: Int) in readNames.contains { Int($0[0]) == b } }

    /// Whether `source` holds one of `readNames` anywhere.
    static func namesAReadType(_ source: String) -> Bool {
        var source = source
        return source.withUTF8(namesAReadType)
    }

    /// `namesAReadType` of UTF-8 bytes.
    static func namesAReadType(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let first = readFirstBytes, names = readNames
        let n = bytes.count
        for i in 0..<n where first[Int(bytes[i])] {
            for name in names where name[0] == bytes[i] && i + name.count <= n {
                var k = 1
                while k < name.count && bytes[i + k] == name[k] { k += 1 }
                if k == name.count { return true }
            }
        }
        return false
    }

    /// Adds the types of a top-level value: an object, an array of objects, or an @graph.
    private mutating func collect(_ value: Any) {
        if let array = value as? [Any] {
            for v in array { collect(v) }
        } else if let object = value as? [String: Any] {
            add(object["@type"])
            if PageSchema.declaresProduct(object["@type"]), let description = object["description"] as? String,
               description.utf8.count > productDescription?.utf8.count ?? 0 {
                productDescription = description
            }
            if let body = object["articleBody"] as? String, body.utf8.count > articleBody?.utf8.count ?? 0 {
                articleBody = body
            }
            if let graph = object["@graph"] { collect(graph) }
        }
    }

    /// Whether a `@type` value names a product type.
    static func declaresProduct(_ type: Any?) -> Bool {
        if let name = type as? String { return productTypes.contains(bare(name)) }
        if let names = type as? [Any] { return names.contains { ($0 as? String).map { productTypes.contains(bare($0)) } ?? false } }
        return false
    }

    private mutating func add(_ type: Any?) {
        if let name = type as? String {
            types.insert(PageSchema.bare(name))
        } else if let names = type as? [Any] {
            for case let name as String in names { types.insert(PageSchema.bare(name)) }
        }
    }

    /// "https://schema.org/Product" and "schema:Product" → "Product".
    static func bare(_ name: String) -> String {
        if let cut = name.lastIndex(where: { $0 == "/" || $0 == ":" || $0 == "#" }) {
            return String(name[name.index(after: cut)...])
        }
        return name
    }
}
