// Class-name and id vocabularies sites use for page furniture (in English even on pages in
// other languages). Names are split into lowercase word tokens ("post-share_buttons" →
// post, share, buttons), and a token matches a vocabulary word when it starts with it.
import HTML

enum Vocabulary {
    /// Furniture around the article: sharing, promotion, navigation, sign-up and site chrome.
    /// Words joined later, each measured: disclaimer … signature (wcxb-dev 0.8530 → 0.8534),
    /// popover and the forum engines' poster cards (0.8534 → 0.8540, 20 pages up, none down),
    /// relativetime (8 pages up), feedback, notice, controls, offer (0.85401 → 0.85453, 25 up,
    /// 5 down).
    static let boilerplate = [
        "share", "sharing", "social", "related", "newsletter", "subscri", "signup", "promo",
        "advert", "sponsor", "breadcrumb", "cookie", "consent", "gdpr", "sidebar",
        "navbar", "menu", "pagination", "pager", "toolbar", "popup", "modal", "banner", "outbrain",
        "taboola", "recommend", "trending", "popular", "print", "disqus", "follow", "footer",
        "masthead", "skip", "visually", "screenreader", "tagcloud",
        "byline", "dateline", "timestamp", "author", "bio", "meta", "readmore", "more",
        "upsell", "paywall", "donate", "comment", "respond", "reply", "disclaimer", "legal", "signature", "popover", "userextra", "userdetail", "postprofile", "relativetime", "feedback", "notice", "controls", "offer",
    ]
    /// Exact tokens that are too short or too common to match as prefixes.
    static let boilerplateExact: Set<String> = ["ad", "ads", "nav", "cta", "tag", "tags", "date", "time", "rel", "jump", "toc", "sr"]
    /// In a thread, post headers (author, date, "reply") are part of each post.
    static let postHeader: Set<String> = ["byline", "dateline", "timestamp", "author", "bio", "meta", "comment", "respond", "reply", "date", "time"]
    static let threadBoilerplate = boilerplate.filter { !postHeader.contains($0) }
    static let threadBoilerplateExact = boilerplateExact.subtracting(postHeader)
    /// Captions, credits, picture legends and gallery labels: kept in the reader HTML, left out of the text.
    static let caption = ["caption", "credit", "figcaption", "photographer", "copyright", "attribution", "gallery", "legend"]
    /// Containers that name themselves the article body.
    static let content = ["articlebody", "article-body", "article-content", "articlecontent", "entry-content",
                          "post-content", "postcontent", "post-body", "postbody", "story-body", "storybody",
                          "entry-body", "content-body", "article-text", "articletext", "story-content",
                          "post-entry", "single-content", "page-content", "main-content", "td-post-content"]

    /// A node's class and id, read in place as lowercase word tokens (bytes; non-ASCII bytes
    /// count as letters; ASCII letters compared lowercased). Utility-class names (Tailwind's
    /// `print:hidden`, `w-[64px]`, `decoration-primary/6`) say how a box looks, not what it
    /// is, and are skipped. Nothing is copied: a node's names are read two or three times at
    /// most, and splitting them again costs less than allocating a lowercased copy.
    struct Names {
        private let className: String
        private let id: String

        static let none = Names(className: "", id: "")

        init(_ node: Node) {
            self.init(className: node.className, id: node.id)
        }

        init(className: String, id: String) {
            self.className = className
            self.id = id
        }

        var isEmpty: Bool { className.isEmpty && id.isEmpty }

        /// Whether a token starts with a prefix of `words` (or is one of its exact tokens).
        func matches(_ words: Words) -> Bool {
            anyToken { b, start, count in Names.tokenMatches(b, start, count, words) }
        }

        /// Whether a token matches `a` and whether one matches `b`, from one pass over the
        /// names (an element's caption and furniture vocabularies are read together).
        func matches(_ a: Words, _ b: Words) -> (Bool, Bool) {
            var first = false, second = false
            _ = anyToken { bytes, start, count in
                if !first && Names.tokenMatches(bytes, start, count, a) { first = true }
                if !second && Names.tokenMatches(bytes, start, count, b) { second = true }
                return first && second
            }
            return (first, second)
        }

        /// Whether a token, lowercased, is one of `list` (lowercase bytes).
        func hasToken(in list: [[UInt8]]) -> Bool {
            anyToken { b, start, count in
                list.contains { $0.count == count && Names.equal(b, start, $0, count) }
            }
        }

        /// Whether `test` holds for a token (its bytes' buffer, start and length) of the class
        /// list or the id.
        private func anyToken(_ test: (UnsafeBufferPointer<UInt8>, Int, Int) -> Bool) -> Bool {
            if isEmpty { return false }
            return Names.anyToken(of: className, test) || Names.anyToken(of: id, test)
        }

        /// Whether `test` holds for a token of `s`, split at white space into names and each
        /// name (but a utility class) into tokens.
        private static func anyToken(of s: String, _ test: (UnsafeBufferPointer<UInt8>, Int, Int) -> Bool) -> Bool {
            if s.isEmpty { return false }
            var s = s
            return s.withUTF8 { b in
                var nameStart = 0
                for i in 0...b.count where i == b.count || b[i] <= 0x20 {
                    defer { nameStart = i + 1 }
                    if i > nameStart && nameHolds(b, nameStart..<i, test) { return true }
                }
                return false
            }
        }

        private static func nameHolds(_ b: UnsafeBufferPointer<UInt8>, _ name: Range<Int>,
                                      _ test: (UnsafeBufferPointer<UInt8>, Int, Int) -> Bool) -> Bool {
            for j in name {
                let c = b[j]
                if c == 0x3A || c == 0x5B || c == 0x2F || c == 0x40 || c == 0x21 { return false }
            }
            var start = name.lowerBound
            for j in name.lowerBound...name.upperBound {
                if j < name.upperBound && isWordByte(b[j]) { continue }
                if j > start && test(b, start, j - start) { return true }
                start = j + 1
            }
            return false
        }

        @inline(__always)
        private static func isWordByte(_ c: UInt8) -> Bool {
            c >= 0x80 || (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39)
        }

        private static func tokenMatches(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int, _ words: Words) -> Bool {
            // Only the words that start with the token's first byte can match it.
            let bucket = words.byFirstByte[Int(asciiLowercased(b[start]))]
            if bucket.isEmpty { return false }
            if count <= 4 {
                for word in bucket.exact where word.count == count && equal(b, start, word, count) { return true }
            }
            for word in bucket.prefixes where word.count <= count && equal(b, start, word, word.count) { return true }
            return false
        }

        /// Whether the `count` bytes of `b` from `start`, lowercased, are the first `count` of `word`.
        @inline(__always)
        private static func equal(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ word: [UInt8], _ count: Int) -> Bool {
            var k = 0
            while k < count, asciiLowercased(b[start + k]) == word[k] { k += 1 }
            return k == count
        }

        /// Whether the whole class list or id holds one of the content names.
        func namesContent() -> Bool {
            Names.holdsContentName(className) || Names.holdsContentName(id)
        }

        /// Every content name holds "body", "content", "text" or "entry"; most names hold
        /// none, and are passed over first. (A content name holds no space, so the class list
        /// and the id are searched apart.)
        private static func holdsContentName(_ s: String) -> Bool {
            if s.isEmpty { return false }
            var s = s
            return s.withUTF8 { b in
                // Only the names holding a stem the string holds are searched for.
                var present: UInt8 = 0
                for (i, stem) in Vocabulary.stems.enumerated() where containsLowercased(b, stem) { present |= 1 << i }
                guard present != 0 else { return false }
                return Vocabulary.contentBytes.contains { $0.stems & present != 0 && containsLowercased(b, $0.name) }
            }
        }

        /// Naive substring search, ASCII letters of `haystack` lowercased (class lists are short).
        private static func containsLowercased(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
            guard needle.count <= haystack.count, let first = needle.first else { return needle.isEmpty }
            var i = 0
            let last = haystack.count - needle.count
            while i <= last {
                if asciiLowercased(haystack[i]) == first {
                    var j = 1
                    while j < needle.count && asciiLowercased(haystack[i + j]) == needle[j] { j += 1 }
                    if j == needle.count { return true }
                }
                i += 1
            }
            return false
        }
    }

    /// Whether any token of `node`'s class or id starts with a prefix of `words` (or is one of
    /// its exact tokens).
    static func matches(_ node: Node, _ words: Words) -> Bool {
        Names(node).matches(words)
    }

    fileprivate static let stems: [[UInt8]] = ["body", "content", "text", "entry"].map { Array($0.utf8) }
    /// Each content name's bytes and the stems it holds (bit i: `stems[i]`).
    fileprivate static let contentBytes: [(name: [UInt8], stems: UInt8)] = content.map { name in
        let bytes = Array(name.utf8)
        var held: UInt8 = 0
        for (i, stem) in stems.enumerated() where contains(bytes, stem) { held |= 1 << i }
        return (bytes, held)
    }

    /// Class names that hide a box everywhere ("hidden", "d-none", "is-hidden"); a list with
    /// responsive names ("hidden md:block") shows it somewhere, and is not hidden.
    static func namesHidden(_ node: Node) -> Bool { namesHidden(className: node.className) }

    /// `namesHidden` of a class list.
    static func namesHidden(className: String) -> Bool {
        var className = className
        // An ASCII class list (nearly all) is read as bytes: there lowercasing, splitting at
        // spaces and comparing Characters are the same as on bytes.
        let ascii: Bool? = className.withUTF8 { bytes in
            guard bytes.count >= 4 else { return nil }
            for b in bytes where b >= 0x80 || b == 0x3A { return b == 0x3A ? nil : false }
            return true
        }
        guard let ascii else { return false }
        if !ascii { return namesHiddenUnicode(className) }
        return className.withUTF8 { bytes in
            var start = 0
            for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x20 {
                defer { start = i + 1 }
                let length = i - start
                guard length >= 6 else { continue }
                for name in hiddenNameBytes where name.count == length {
                    var k = 0
                    while k < length, asciiLowercased(bytes[start + k]) == name[k] { k += 1 }
                    if k == length { return true }
                }
            }
            return false
        }
    }

    /// `namesHidden` for a class list with non-ASCII characters, on Characters.
    static func namesHiddenUnicode(_ className: String) -> Bool {
        guard className.count >= 4, !className.contains(":") else { return false }
        for name in className.lowercased().split(separator: " ") {
            if hiddenNames.contains(String(name)) { return true }
        }
        return false
    }

    @inline(__always)
    static func asciiLowercased(_ b: UInt8) -> UInt8 { b >= 65 && b <= 90 ? b + 32 : b }

    static let hiddenNames: Set<String> = ["hidden", "d-none", "is-hidden", "u-hidden", "invisible", "display-none", "visually-hidden", "sr-only", "screen-reader-text"]
    static let hiddenNameBytes: [[UInt8]] = hiddenNames.sorted().map { Array($0.utf8) }

    /// Words to match tokens against: prefixes, and exact tokens.
    struct Words {
        /// The prefixes and exact tokens by their first byte: a token is compared only with
        /// the few words that start as it does (most tokens start with no word's first byte).
        let byFirstByte: [Bucket]

        struct Bucket {
            var prefixes: [[UInt8]] = []
            var exact: [[UInt8]] = []
            var isEmpty: Bool { prefixes.isEmpty && exact.isEmpty }
        }

        init(_ prefixes: [String], exact: Set<String> = []) {
            var buckets = [Bucket](repeating: Bucket(), count: 256)
            for word in prefixes.map({ Array($0.utf8) }) { if let first = word.first { buckets[Int(first)].prefixes.append(word) } }
            for word in exact.map({ Array($0.utf8) }).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                if let first = word.first { buckets[Int(first)].exact.append(word) }
            }
            byFirstByte = buckets
        }
    }

    static let boilerplateWords = Words(boilerplate, exact: boilerplateExact)
    static let threadBoilerplateWords = Words(threadBoilerplate, exact: threadBoilerplateExact)
    static let captionWords = Words(caption)
    /// Site navigation and the columns beside the article: a repeat under one of these names
    /// is a menu or a widget list, never the page's posts or items. ("menu" is not one: tab
    /// menus hold a product's details.)
    static let navigationWords = Words(["navigation", "navbar", "sidebar", "footer", "breadcrumb", "pagination"], exact: ["nav"])
    /// Customer reviews and ratings: furniture on a product page.
    static let reviewWords = Words(["review", "rating"])

    /// Whether `needle` occurs in `haystack` (bytes).
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        needle.isEmpty || ByteSearch.firstIndex(of: needle, in: haystack) != nil
    }
}
