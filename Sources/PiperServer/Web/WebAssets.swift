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
        // Shares kept on this phone while Piper was away: listed, and sent once it is reachable.
        function showWaiting() {
          var list = document.getElementById('waiting');
          if (!list || !window.indexedDB) return;
          var open = indexedDB.open('piper', 1);
          open.onupgradeneeded = function () { open.result.createObjectStore('outbox', { keyPath: 'key' }); };
          open.onsuccess = function () {
            var all = open.result.transaction('outbox', 'readonly').objectStore('outbox').getAll();
            all.onsuccess = function () {
              list.textContent = '';
              all.result.forEach(function (entry) {
                var item = document.createElement('li');
                item.textContent = entry.fields.map(function (f) { return f.file ? f.fileName : f.value; }).filter(Boolean).join(' · ');
                list.appendChild(item);
              });
              document.getElementById('waiting-section').hidden = all.result.length === 0;
            };
          };
        }
        if ('serviceWorker' in navigator) {
          navigator.serviceWorker.register('/sw.js').catch(function () {});
          var flush = function () {
            navigator.serviceWorker.ready.then(function (registration) { if (registration.active) registration.active.postMessage('flush'); });
          };
          navigator.serviceWorker.addEventListener('message', function (event) { if (event.data === 'outbox-changed') showWaiting(); });
          window.addEventListener('online', flush);
          flush();
          showWaiting();
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

    /// The worker: pages come from the network, with an offline page when it is gone (what
    /// browsers want before they offer to install the app), and a share that cannot be sent
    /// (the server is away: a home server and a phone out of the house) is kept on the phone
    /// in IndexedDB, fields and files, and sent when Piper is reachable again (Background Sync
    /// where the browser has it, else when the app opens or comes online). Every share carries
    /// an idempotency key, so a retry after a lost answer never makes a second job; an answer
    /// of 429 or 5xx keeps it too.
    static let serviceWorker = """
        'use strict';
        var OUTBOX = 'outbox';
        function openDB() {
          return new Promise(function (resolve, reject) {
            var request = indexedDB.open('piper', 1);
            request.onupgradeneeded = function () { request.result.createObjectStore(OUTBOX, { keyPath: 'key' }); };
            request.onsuccess = function () { resolve(request.result); };
            request.onerror = function () { reject(request.error); };
          });
        }
        function withStore(mode, work) {
          return openDB().then(function (db) {
            return new Promise(function (resolve, reject) {
              var transaction = db.transaction(OUTBOX, mode);
              var request = work(transaction.objectStore(OUTBOX));
              transaction.oncomplete = function () { resolve(request ? request.result : undefined); };
              transaction.onerror = function () { reject(transaction.error); };
            });
          });
        }
        function newKey() {
          if (self.crypto && self.crypto.randomUUID) return self.crypto.randomUUID();
          return Date.now().toString(36) + '-' + Math.random().toString(36).slice(2, 12);
        }
        function formOf(fields) {
          var form = new FormData();
          fields.forEach(function (field) {
            if (field.file) form.append(field.name, field.file, field.fileName); else form.append(field.name, field.value);
          });
          return form;
        }
        // A navigation (the share sheet's POST) is sent as one (Piper-Navigation) and gets the
        // server's 303 itself, so the browser lands on the result page's own address and a
        // reload never posts again.
        function send(entry, accept, navigation) {
          var headers = { 'Accept': accept || 'text/html', 'Idempotency-Key': entry.key };
          if (navigation) headers['Piper-Navigation'] = '1';
          return fetch('/share', { method: 'POST', body: formOf(entry.fields), credentials: 'same-origin',
                                   redirect: navigation ? 'manual' : 'follow', headers: headers })
            .then(function (response) {
              if (response.status === 429 || response.status >= 500) throw new Error('not taken: ' + response.status);
              return response;
            });
        }
        var flushing = null;
        function flush() {
          if (flushing) return flushing;
          flushing = withStore('readonly', function (store) { return store.getAll(); }).then(function (entries) {
            return entries.reduce(function (done, entry) {
              return done.then(function () {
                return send(entry).then(function () { return withStore('readwrite', function (store) { return store.delete(entry.key); }); },
                                        function () {});
              });
            }, Promise.resolve());
          }).then(function () { return self.clients.matchAll(); }).then(function (clients) {
            clients.forEach(function (client) { client.postMessage('outbox-changed'); });
          }).catch(function () {}).then(function () { flushing = null; });
          return flushing;
        }
        function keptPage() {
          return new Response('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">' +
            '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Kept — Piper</title>' +
            '<link rel="stylesheet" href="/app.css"></head><body><main><h1 id="outcome">Kept on this phone</h1>' +
            '<p id="kept-note">Kept on this phone; it will be sent when Piper is reachable.</p><p><a href="/">Home</a></p></main></body></html>',
            { status: 202, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
        }
        function share(request) {
          var accept = request.headers.get('Accept') || 'text/html';
          return request.formData().then(function (form) {
            var key = form.get('key') || request.headers.get('Idempotency-Key') || newKey();
            var fields = [];
            form.forEach(function (value, name) {
              if (name === 'key') return;
              if (typeof value === 'string') fields.push({ name: name, value: value });
              else fields.push({ name: name, file: value, fileName: value.name || 'file' });
            });
            var entry = { key: key, fields: fields, kept: Date.now() };
            return send(entry, accept, request.mode === 'navigate').catch(function () {
              return withStore('readwrite', function (store) { return store.put(entry); }).then(function () {
                if (self.registration.sync) self.registration.sync.register('piper-outbox').catch(function () {});
                return keptPage();
              });
            });
          });
        }
        self.addEventListener('install', function () { self.skipWaiting(); });
        self.addEventListener('activate', function (event) { event.waitUntil(self.clients.claim()); });
        self.addEventListener('sync', function (event) { if (event.tag === 'piper-outbox') event.waitUntil(flush()); });
        self.addEventListener('message', function (event) { if (event.data === 'flush') event.waitUntil(flush()); });
        self.addEventListener('fetch', function (event) {
          var url = new URL(event.request.url);
          if (event.request.method === 'POST' && url.origin === self.location.origin && url.pathname === '/share') {
            event.respondWith(share(event.request));
            return;
          }
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
