/// The web app's static files: stylesheet, script, service worker and manifest.
enum WebAssets {
    static let css = """
        body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f7f5f0;color:#222}
        main{max-width:40rem;margin:0 auto;padding:1rem}
        header{margin-bottom:1rem}.brand{font-weight:700;font-size:1.3rem;color:#b3541e;text-decoration:none}
        input[type=url],input[type=text]{width:100%;box-sizing:border-box;padding:.6rem;font-size:1rem}
        button{padding:.5rem 1rem;font-size:1rem;margin-top:.5rem}
        .error{color:#a00}.muted{color:#666;font-size:.9rem}
        ul.shares{list-style:none;padding:0}ul.shares li{padding:.5rem 0;border-bottom:1px solid #ddd}
        code,pre{background:#eee;padding:.1rem .3rem;overflow-x:auto}
        a.bookmarklet{display:inline-block;padding:.3rem .8rem;background:#b3541e;color:#fff;border-radius:4px}
        """

    /// Progressive enhancement only: every page works without it.
    static let js = """
        'use strict';
        if ('serviceWorker' in navigator) {
          navigator.serviceWorker.register('/sw.js').catch(function () {});
        }
        document.querySelectorAll('button[data-copy]').forEach(function (button) {
          button.hidden = false;
          button.addEventListener('click', function () {
            var field = document.getElementById(button.getAttribute('data-copy'));
            field.select();
            var done = function () { button.textContent = 'Copied'; };
            if (navigator.clipboard) { navigator.clipboard.writeText(field.value).then(done, function () { document.execCommand('copy'); done(); }); }
            else { document.execCommand('copy'); done(); }
          });
        });
        var recent = document.getElementById('recent');
        if (recent && recent.querySelector('[data-live]')) {
          var poll = function () {
            fetch('/api/shares', { credentials: 'same-origin', headers: { 'Accept': 'application/json' } })
              .then(function (r) { return r.ok ? r.json() : null; })
              .then(function (data) {
                if (!data) return;
                var live = false;
                data.shares.forEach(function (share) {
                  var item = recent.querySelector('[data-share="' + share.id + '"] .state');
                  if (item) item.textContent = share.state;
                  if (share.live) live = true;
                });
                if (live) setTimeout(poll, 2000);
              });
          };
          setTimeout(poll, 2000);
        }
        """

    /// A minimal worker: pages come from the network, with an offline page when it is gone,
    /// which is what browsers want before they offer to install the app.
    static let serviceWorker = """
        'use strict';
        self.addEventListener('install', function () { self.skipWaiting(); });
        self.addEventListener('activate', function (event) { event.waitUntil(self.clients.claim()); });
        self.addEventListener('fetch', function (event) {
          if (event.request.method !== 'GET' || event.request.mode !== 'navigate') return;
          event.respondWith(fetch(event.request).catch(function () {
            return new Response('<!DOCTYPE html><title>Piper</title><p>Piper is offline. Try again when the server is reachable.</p>',
                                { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
          }));
        });
        """

    /// `manifest.webmanifest`: installable, and a share target for links and media files.
    static let manifest = """
        {
          "name": "Piper",
          "short_name": "Piper",
          "description": "Share a link: media goes to your library, an article is saved for Instapaper.",
          "start_url": "/",
          "scope": "/",
          "display": "standalone",
          "background_color": "#f7f5f0",
          "theme_color": "#b3541e",
          "icons": [
            {"src": "/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": "/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"}
          ],
          "share_target": {
            "action": "/share",
            "method": "POST",
            "enctype": "multipart/form-data",
            "params": {
              "title": "title",
              "text": "text",
              "url": "url",
              "files": [{"name": "file", "accept": ["audio/*", "video/*", "application/zip", ".mp3", ".m4a", ".m4b", ".zip"]}]
            }
          }
        }
        """
}
