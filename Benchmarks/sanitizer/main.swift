import Foundation
import PiperServer

// piper-bench-sanitizer [--rounds N] [--dump DIR] [CORPUS_DIR]
// Sanitizes every readability expected.html (the article bodies a save receives) N rounds and
// prints one line per round: "piper sanitize <ms/page>" (CPU time of this thread), so that
// scripts/bench-sanitizer can interleave its rounds with nh3's on the same bodies. --dump DIR
// also writes each body's sanitized output to DIR/<page>.html (to compare two builds' outputs).
// Build with scripts/build-release.

var rounds = 3
var dir = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    .appendingPathComponent("../shared/corpus/readability").standardizedFileURL
var dump: String?
var args = CommandLine.arguments.dropFirst()
while let arg = args.popFirst() {
    if arg == "--rounds", let n = args.popFirst().flatMap({ Int($0) }) { rounds = n }
    else if arg == "--dump", let path = args.popFirst() { dump = path }
    else { dir = URL(fileURLWithPath: arg) }
}

var bodies: [String] = [], names: [String] = []
for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() {
    let url = dir.appendingPathComponent(name).appendingPathComponent("expected.html")
    if let data = FileManager.default.contents(atPath: url.path) {
        bodies.append(String(decoding: data, as: UTF8.self))
        names.append(name)
    }
}
guard !bodies.isEmpty else {
    FileHandle.standardError.write(Data("piper-bench-sanitizer: no expected.html under \(dir.path)\n".utf8))
    exit(66)
}

func threadCPU() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

if let dump {
    try FileManager.default.createDirectory(atPath: dump, withIntermediateDirectories: true)
    for (name, body) in zip(names, bodies) {
        try Data(HTMLSanitizer.sanitize(body).utf8).write(to: URL(fileURLWithPath: dump).appendingPathComponent(name + ".html"))
    }
    print("dumped \(bodies.count) outputs; \(bodies.filter { !HTMLSanitizer.settlesInOnePass($0) }.count) needed more than one pass, \(bodies.filter(HTMLSanitizer.takesFastPath).count) took the fast path")
}

var keep = 0
for body in bodies { keep &+= HTMLSanitizer.sanitize(body).utf8.count }  // warm-up
for _ in 0..<rounds {
    var cpu = 0.0
    for body in bodies {
        let start = threadCPU()
        keep &+= HTMLSanitizer.sanitize(body).utf8.count
        cpu += threadCPU() - start
    }
    print(String(format: "piper sanitize %.4f", cpu * 1000 / Double(bodies.count)))
}
if keep == 42 { print("") }
