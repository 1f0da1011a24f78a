/// `/shortcut`: how to share from an iPhone with a Shortcut — the exact actions and the request.
enum ShortcutPage {
    /// `mayMint`: the owner's browser sees the form that makes a token; anyone else is told who can.
    static func render(publicURL: String, device: String, mayMint: Bool = true, newToken: (name: String, token: String)? = nil) -> HTTPResponse {
        let e = WebPage.e
        let token = newToken.map {
            """
            <h2>Token for \(e($0.name))</h2>
            <p>Shown once. Put it in the Shortcut's Authorization header.</p>
            <input type="text" id="token" readonly value="\(e($0.token))">
            <button type="button" data-copy="token" hidden>Copy</button>
            """
        } ?? ""
        let body = """
            <h1>Share from an iPhone</h1>
            <p>A Shortcut that appears in the share sheet and sends the link to Piper.</p>
            \(mayMint ? """
                <form method="post" action="/tokens"><label for="name">Name for the token</label>
                <input type="text" id="name" name="name" value="iPhone Shortcut"><button type="submit">Create a token</button></form>
                """ : "<p id=\"owner-only\">A token is made by the server's owner, on their paired browser or with "
                    + "<code>piper devices token NAME</code> on the server.</p>")
            \(token)
            <h2>The Shortcut's actions</h2>
            <ol>
            <li>In Shortcuts, create a new Shortcut; in its details turn on <em>Show in Share Sheet</em> and accept <em>URLs</em>, <em>Safari web pages</em> and <em>Text</em>.</li>
            <li>Add <em>Get Contents of URL</em>: URL <code>\(e(publicURL))/share</code>, Method <code>POST</code>,
            Headers <code>Authorization</code> = <code>Bearer YOUR-TOKEN</code> and <code>Accept</code> = <code>application/json</code>,
            Request Body <em>JSON</em> with the field <code>url</code> = <em>Shortcut Input</em>.</li>
            <li>Add <em>Get Dictionary Value</em> for <code>url</code> of the result, then <em>If</em> it <em>has any value</em>:
            <em>Copy to Clipboard</em> and <em>Show Notification</em> “Saved — paste into Instapaper” (an article: its reader URL is
            on the clipboard); <em>Otherwise</em>: <em>Get Dictionary Value</em> <code>message</code> and <em>Show Notification</em>
            with it (media: “Downloading ep42.mp3 — it will be in your library”, “Already in the library as …”, or why it failed).</li>
            </ol>
            <h2>The request it sends</h2>
            <pre>POST /share HTTP/1.1
            Host: \(e(publicURL.replacingOccurrences(of: "https://", with: "").replacingOccurrences(of: "http://", with: "")))
            Authorization: Bearer YOUR-TOKEN
            Accept: application/json
            Content-Type: application/json

            {"url": "https://example.com/article"}</pre>
            <p>The answer: <code>{"status": "saved", "url": "…", "title": "…", "error": null, "job": null, "message": "…"}</code>;
            <code>status</code> is <code>saved</code> (with the reader <code>url</code>), <code>queued</code> (media, with <code>job</code>),
            <code>duplicate</code> (already in the library, with <code>libraryPath</code>) or <code>failed</code> (with <code>error</code>);
            <code>/api/shares</code> then follows a media job to <code>downloading</code>, <code>imported</code>, <code>failed</code> or
            <code>cancelled</code>.</p>
            """
        return WebPage.render("iOS Shortcut", body, device: device)
    }
}
