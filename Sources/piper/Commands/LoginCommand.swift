import Foundation
import PiperCore
import PiperNet

/// `piper login --cookies FILE`: imports X/Twitter cookies from a Netscape cookies.txt.
struct LoginCommand: Command {
    static let name = "login"
    static let abstract = "Connect your X account: import its cookies from a cookies.txt file."
    static let discussion: String? = """
        FILE is a Netscape-format cookies.txt, as exported by browser extensions, curl or yt-dlp
        (--cookies-from-browser). Only x.com and twitter.com cookies are kept; they are stored
        with mode 0600 in the state folder. Expired cookies don't count.
        """
    struct Options: OptionGroup {
        var cookies = Opt.text("--cookies", placeholder: "FILE", help: "The cookies.txt file to import.")
    }

    let file: String

    init(_ parsed: Parsed<Options>) throws {
        guard let file = parsed.cookies else { throw UsageError("Missing --cookies <FILE>") }
        self.file = file
    }

    func run() async throws -> ExitCode {
        let config = try loadConfig()
        guard FileManager.default.fileExists(atPath: file) else { throw CookieFileError.missing(file) }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CookieFileError.unreadable(file, "permission denied, or it is a folder")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CookieFileError.unreadable(file, "it is not UTF-8 text (a Netscape cookies.txt is plain text)")
        }
        let now = Date()
        let imported = try CookieImport.make(from: text, path: file, now: now)
        let store = FileCookieStore(state: config.state)
        try store.save(imported.jar)
        Output.out(imported.summary(at: now))
        return .success
    }
}
