import PiperCore
/// The reader page's only style sheet, inline. Its SHA-256 goes into the page's CSP, so the
/// browser applies exactly this text and nothing else.
enum ReaderStyle {
    static let css = """
        :root{color-scheme:light dark;--fg:#1f1f1f;--bg:#fdfcf8;--muted:#5f5f5f;--rule:#e2ded3;--link:#1a5fb4;--code:#f1eee6}
        @media (prefers-color-scheme:dark){:root{--fg:#e6e3dc;--bg:#16171a;--muted:#a09c93;--rule:#33353a;--link:#8ab4f8;--code:#23252a}}
        *{box-sizing:border-box}
        html{-webkit-text-size-adjust:100%}
        body{margin:0;background:var(--bg);color:var(--fg);font:1.15rem/1.65 Charter,"Bitstream Charter","Iowan Old Style",Georgia,serif}
        main{max-width:40rem;margin:0 auto;padding:2.5rem 1.25rem 4rem}
        h1,h2,h3,h4,h5,h6{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;line-height:1.25;margin:1.8em 0 .6em}
        header.saved{margin:0 0 2em}
        header.saved h1{font-size:2rem;margin:0 0 .4em}
        header.saved p,footer.saved{color:var(--muted);font:.9rem/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 0 .3em}
        footer.saved{border-top:1px solid var(--rule);margin-top:3em;padding-top:1em}
        .embed{border:1px solid var(--rule);border-radius:4px;padding:.6em 1em}
        p,ul,ol,blockquote,pre,figure,table{margin:0 0 1.2em}
        a{color:var(--link);text-underline-offset:.15em}
        img,video,audio,picture{max-width:100%;height:auto}
        figure{margin-left:0;margin-right:0}
        figcaption{color:var(--muted);font-size:.9em}
        blockquote{margin-left:0;padding-left:1em;border-left:3px solid var(--rule);color:var(--muted)}
        pre,code{font-family:ui-monospace,"SF Mono",Menlo,Consolas,monospace;font-size:.88em;background:var(--code)}
        pre{padding:.8em 1em;overflow-x:auto;border-radius:4px}
        table{border-collapse:collapse;display:block;overflow-x:auto}
        th,td{border:1px solid var(--rule);padding:.3em .6em;text-align:left}
        hr{border:0;border-top:1px solid var(--rule);margin:2em 0}
        """

    /// `'sha256-…'` source expression for `style-src`, computed once.
    static let cspHashSource: String = {
        let digest = SHA256.hash(Array(css.utf8))
        return "'sha256-\(Base64.encode(digest))'"
    }()
}

/// Standard base64 (RFC 4648, with padding).
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let b0 = UInt32(bytes[i])
            let b1 = i + 1 < bytes.count ? UInt32(bytes[i + 1]) : 0
            let b2 = i + 2 < bytes.count ? UInt32(bytes[i + 2]) : 0
            let n = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(i + 1 < bytes.count ? alphabet[Int(n >> 6 & 63)] : UInt8(ascii: "="))
            out.append(i + 2 < bytes.count ? alphabet[Int(n & 63)] : UInt8(ascii: "="))
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
