import Glibc

/// lexbor (C), the fastest HTML5 parser we know of, as PyPI's `selectolax` bundles it: its
/// extension module exports lexbor's C API, so the benchmark loads that module with `dlopen`
/// (libpython first, globally, for the module's unresolved Python symbols; no Python code
/// runs) and calls `lxb_html_document_create` + `lxb_html_document_parse` +
/// `lxb_html_document_destroy`, a full parse like gumbo's (tree built, then freed).
/// `scripts/bench-html` creates the virtual environment and passes both paths.
struct LexborRunner: ParserRunner {
    typealias Create = @convention(c) () -> OpaquePointer?
    typealias Parse = @convention(c) (OpaquePointer?, UnsafePointer<UInt8>?, Int) -> UInt32
    typealias Destroy = @convention(c) (OpaquePointer?) -> OpaquePointer?

    let name = "lexbor parse"
    private let create: Create
    private let parseDocument: Parse
    private let destroy: Destroy

    struct LoadError: Error, CustomStringConvertible {
        let description: String
    }

    init(module: String, libpython: String) throws {
        guard dlopen(libpython, RTLD_NOW | RTLD_GLOBAL) != nil else {
            throw LoadError(description: "cannot load \(libpython): \(String(cString: dlerror()))")
        }
        guard let handle = dlopen(module, RTLD_LAZY | RTLD_LOCAL) else {
            throw LoadError(description: "cannot load \(module): \(String(cString: dlerror()))")
        }
        func symbol<T>(_ name: String, _ type: T.Type) throws -> T {
            guard let p = dlsym(handle, name) else { throw LoadError(description: "\(module) has no \(name)") }
            return unsafeBitCast(p, to: type)
        }
        create = try symbol("lxb_html_document_create", Create.self)
        parseDocument = try symbol("lxb_html_document_parse", Parse.self)
        destroy = try symbol("lxb_html_document_destroy", Destroy.self)
    }

    func parse(_ page: Page) -> Int {
        guard let document = create() else { return 0 }
        let status = page.utf8.withUnsafeBufferPointer { parseDocument(document, $0.baseAddress, $0.count) }
        _ = destroy(document)
        return status == 0 ? 1 : 0
    }
}
