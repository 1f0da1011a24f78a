import Foundation

/// The Netscape `cookies.txt` format that curl, wget and yt-dlp read and write:
/// `domain <TAB> includeSubdomains <TAB> path <TAB> secure <TAB> expires <TAB> name <TAB> value`,
/// `#` comments, and the `#HttpOnly_` prefix on the domain of HttpOnly cookies.
public enum NetscapeCookies {
    /// The prefix curl and browsers write before the domain of an HttpOnly cookie.
    public static let httpOnlyPrefix = "#HttpOnly_"
    /// The comment lines at the top of a cookie file Piper writes.
    public static let header = "# Netscape HTTP Cookie File\n# Written by Piper. Only X/Twitter cookies are kept.\n\n"

    /// Parses a whole file. A line that is neither blank, a comment nor a cookie is an error
    /// naming its (1-based) line number.
    public static func parse(_ text: String) throws -> [Cookie] {
        var cookies: [Cookie] = []
        var lineNumber = 0
        // "\r\n" is one Character in Swift, and it is a newline: CRLF files split like LF ones.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            var line = Substring(rawLine)
            var httpOnly = false
            if line.hasPrefix(httpOnlyPrefix) {
                httpOnly = true
                line = line.dropFirst(httpOnlyPrefix.count)
            } else if line.hasPrefix("#") || line.allSatisfy({ $0 == " " || $0 == "\t" }) {
                continue
            }
            cookies.append(try parseLine(line, httpOnly: httpOnly, lineNumber: lineNumber))
        }
        return cookies
    }

    private static func parseLine(_ line: Substring, httpOnly: Bool, lineNumber: Int) throws -> Cookie {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        // curl writes 7 fields; an empty value may lose its trailing tab.
        guard fields.count == 7 || fields.count == 6 else {
            throw CookieFileError.malformedLine(lineNumber, "expected 7 tab-separated fields, found \(fields.count)")
        }
        let domain = String(fields[0])
        guard !domain.isEmpty, !domain.contains(" ") else {
            throw CookieFileError.malformedLine(lineNumber, "the domain is empty or has spaces")
        }
        guard let subdomains = flag(fields[1]) else {
            throw CookieFileError.malformedLine(lineNumber, "the second field must be TRUE or FALSE")
        }
        guard let secure = flag(fields[3]) else {
            throw CookieFileError.malformedLine(lineNumber, "the fourth field must be TRUE or FALSE")
        }
        guard let expiry = Int64(fields[4].trimmingCharacters(in: .whitespaces)), expiry >= 0 else {
            // Never the field's text: a value pasted one column off is a secret shown back.
            throw CookieFileError.malformedLine(lineNumber, "the expiry (the fifth field) is not a Unix time")
        }
        let name = String(fields[5])
        guard !name.isEmpty else { throw CookieFileError.malformedLine(lineNumber, "the cookie name is empty") }
        return Cookie(domain: domain, includeSubdomains: subdomains, path: fields[2].isEmpty ? "/" : String(fields[2]),
                      secure: secure, httpOnly: httpOnly,
                      expires: expiry == 0 ? nil : Date(timeIntervalSince1970: TimeInterval(expiry)),
                      name: name, value: fields.count == 7 ? String(fields[6]) : "")
    }

    private static func flag(_ field: Substring) -> Bool? {
        switch field.uppercased() {
        case "TRUE": return true
        case "FALSE": return false
        default: return nil
        }
    }

    /// One cookie as a Netscape line (also what libcurl's `CURLOPT_COOKIELIST` accepts).
    public static func line(for cookie: Cookie) -> String {
        let expiry = cookie.expires.map { Int64($0.timeIntervalSince1970) } ?? 0
        return [
            (cookie.httpOnly ? httpOnlyPrefix : "") + cookie.domain,
            cookie.includeSubdomains ? "TRUE" : "FALSE",
            cookie.path,
            cookie.secure ? "TRUE" : "FALSE",
            String(expiry),
            cookie.name,
            cookie.value,
        ].joined(separator: "\t")
    }

    /// The cookies in the Netscape format (the header, then one tab-separated line each).
    public static func serialize(_ cookies: [Cookie]) -> String {
        header + cookies.map { line(for: $0) + "\n" }.joined()
    }
}

/// A cookies file that cannot be used. Exit 65 (bad input data).
public enum CookieFileError: PiperError, Equatable {
    case malformedLine(Int, String)
    case unreadable(String, String)
    case noXCookies(String)
    case allExpired(String, Int)
    /// One of X's two login cookies (auth_token, ct0) is there without the other.
    case missingLoginCookie(String, String)
    /// The file does not exist.
    case missing(String)

    /// The sentence a user sees (it names the line, never the cookie's value).
    public var description: String {
        switch self {
        case .malformedLine(let n, let why): return "Malformed cookies file: line \(n): \(why)"
        case .unreadable(let path, let why): return "Cannot read cookies file \(path): \(why)"
        case .noXCookies(let path):
            return "No X/Twitter cookies in \(path). Export your cookies for x.com while logged in, then try again."
        case .allExpired(let path, let n):
            return "All \(n) X/Twitter cookies in \(path) have expired. Log in to X in your browser, export fresh cookies and try again."
        case .missingLoginCookie(let path, let name):
            return "The X cookies in \(path) have no \(name) cookie; X needs both auth_token and ct0. "
                + "Export your cookies for x.com while logged in, then try again."
        case .missing(let path):
            return "There is no cookies file \(path). Export your x.com cookies from your browser as cookies.txt, then pass its path."
        }
    }
    /// A malformed cookie file is bad input data.
    public var category: ErrorCategory { .badData }
}
