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
        // Shares kept on this phone: those waiting, with why (Piper unreachable, or reachable but
        // failing) and when they are tried again; those Piper refused, with its reason, until
        // the person dismisses them. A timer asks the worker to send each again when it is due.
        var retryTimer = null;
        function section(id, title, note) {
          var list = document.getElementById(id);
          if (list) return list;
          var part = document.createElement('section');
          part.id = id + '-section';
          part.innerHTML = '<h2></h2><p class="muted"></p><ul class="shares"></ul>';
          part.querySelector('h2').textContent = title;
          part.querySelector('p').textContent = note;
          part.querySelector('ul').id = id;
          var main = document.querySelector('main');
          main.insertBefore(part, main.querySelector('header') ? main.querySelector('header').nextSibling : main.firstChild);
          return part.querySelector('ul');
        }
        function entryText(entry) {
          return entry.fields.map(function (f) { return f.file ? f.fileName : f.value; }).filter(Boolean).join(' · ');
        }
        // A kept share as a list item: what it carries, then a line about it.
        function entryItem(entry, className, text) {
          var item = document.createElement('li');
          item.appendChild(document.createElement('strong')).textContent = entryText(entry);
          item.appendChild(document.createElement('br'));
          var line = item.appendChild(document.createElement('span'));
          line.className = className;
          line.textContent = text;
          return item;
        }
        function waitingLine(entry) {
          var next = entry.next ? Math.max(1, Math.round((entry.next - Date.now()) / 1000)) : 0;
          var when = next ? ' Trying again in ' + next + ' s.' : '';
          if (entry.state === 'failing') {
            return 'Piper is reachable but answered with an error (' + entry.status + (entry.reason ? ': ' + entry.reason : '') + ').' + when;
          }
          return 'Piper is not reachable from this phone.' + (when || ' Sent when it is.');
        }
        function showWaiting() {
          if (!window.indexedDB) return;
          var open = indexedDB.open('piper', 1);
          open.onupgradeneeded = function () { open.result.createObjectStore('outbox', { keyPath: 'key' }); };
          open.onsuccess = function () {
            var all = open.result.transaction('outbox', 'readonly').objectStore('outbox').getAll();
            all.onsuccess = function () {
              var waiting = all.result.filter(function (entry) { return entry.state !== 'refused'; });
              var refused = all.result.filter(function (entry) { return entry.state === 'refused'; });
              if (waiting.length || document.getElementById('waiting')) {
                var list = section('waiting', 'Waiting on this phone', 'Kept here until Piper takes them; sent again on their own.');
                list.textContent = '';
                waiting.forEach(function (entry) {
                  list.appendChild(entryItem(entry, 'state ' + (entry.state || 'unreachable'), waitingLine(entry)));
                });
                list.parentNode.hidden = waiting.length === 0;
              }
              if (refused.length || document.getElementById('refused')) {
                var gone = section('refused', 'Not sent', 'Piper refused these; they are not sent again.');
                gone.textContent = '';
                refused.forEach(function (entry) {
                  var item = entryItem(entry, 'error reason', entry.reason);
                  var dismiss = item.appendChild(document.createElement('button'));
                  dismiss.type = 'button';
                  dismiss.textContent = 'Dismiss';
                  dismiss.addEventListener('click', function () {
                    var store = open.result.transaction('outbox', 'readwrite').objectStore('outbox');
                    store.delete(entry.key).onsuccess = showWaiting;
                  });
                  gone.appendChild(item);
                });
                gone.parentNode.hidden = refused.length === 0;
              }
              var due = waiting.map(function (entry) { return entry.next || 0; }).filter(Boolean);
              if (retryTimer) clearTimeout(retryTimer);
              retryTimer = due.length ? setTimeout(function () { ask('flush-due'); }, Math.max(500, Math.min.apply(null, due) - Date.now())) : null;
            };
          };
        }
        function ask(message) {
          navigator.serviceWorker.ready.then(function (registration) { if (registration.active) registration.active.postMessage(message); });
        }
        if ('serviceWorker' in navigator) {
          navigator.serviceWorker.register('/sw.js').catch(function () {});
          navigator.serviceWorker.addEventListener('message', function (event) { if (event.data === 'outbox-changed') showWaiting(); });
          window.addEventListener('online', function () { ask('flush'); });
          ask('flush');
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
    /// where the browser has it, else when the app opens or comes online, and while a page is
    /// open after 2 s, 4 s, 8 s… up to 5 minutes). Every share carries an idempotency key, so a
    /// retry after a lost answer never makes a second job. An entry leaves the phone only when
    /// Piper took it (2xx) or refused it for good (4xx but 408, 425, 429): a refusal stays,
    /// shown with its reason, until the person dismisses it; 5xx and 408/425/429 are tried again.
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
          var headers = { 'Accept': accept || 'application/json', 'Idempotency-Key': entry.key };
          if (navigation) headers['Piper-Navigation'] = '1';
          return fetch('/share', { method: 'POST', body: formOf(entry.fields), credentials: 'same-origin',
                                   redirect: navigation ? 'manual' : 'follow', headers: headers });
        }
        // What an answer means: taken (2xx, or the 303 a navigation gets); not taken for now
        // (5xx, 408, 425, 429: Piper is reachable but failing, the share is sent again later); or
        // refused for good (any other 4xx: the reason is shown, the share is not sent again).
        function verdict(response) {
          if (response.type === 'opaqueredirect' || (response.status >= 200 && response.status < 400)) return 'taken';
          if (response.status >= 500 || [408, 425, 429].indexOf(response.status) >= 0) return 'failing';
          return 'refused';
        }
        function reasonOf(response) {
          return response.json().then(function (answer) { return answer.error || ''; }, function () { return ''; }).then(function (reason) {
            if (response.status === 401) return 'This phone is no longer paired with Piper. ' + reason;
            return reason || ('Piper answered ' + response.status);
          });
        }
        // Tried again after 2 s, 4 s, 8 s… up to 5 minutes.
        function later(entry, state, status, reason) {
          entry.tries = (entry.tries || 0) + 1;
          entry.state = state;
          entry.status = status;
          entry.reason = reason;
          entry.next = Date.now() + Math.min(300000, 2000 * Math.pow(2, entry.tries - 1));
          return withStore('readwrite', function (store) { return store.put(entry); });
        }
        function attempt(entry) {
          return send(entry).then(function (response) {
            var seen = verdict(response);
            if (seen === 'taken') return withStore('readwrite', function (store) { return store.delete(entry.key); });
            return reasonOf(response).then(function (reason) {
              if (seen === 'failing') return later(entry, 'failing', response.status, reason);
              entry.state = 'refused';
              entry.status = response.status;
              entry.reason = reason;
              return withStore('readwrite', function (store) { return store.put(entry); });
            });
          }, function () { return later(entry, 'unreachable', 0, ''); });
        }
        var flushing = null;
        // Sends the kept shares (`due`: only those whose next try has come).
        function flush(due) {
          if (flushing) return flushing;
          flushing = withStore('readonly', function (store) { return store.getAll(); }).then(function (entries) {
            return entries.reduce(function (done, entry) {
              if (entry.state === 'refused' || (due && entry.next && entry.next > Date.now() + 250)) return done;
              return done.then(function () { return attempt(entry).catch(function () {}); });
            }, Promise.resolve());
          }).then(function () { return self.clients.matchAll(); }).then(function (clients) {
            clients.forEach(function (client) { client.postMessage('outbox-changed'); });
          }).catch(function () {}).then(function () { flushing = null; });
          return flushing;
        }
        function keptPage(entry) {
          var note = entry.state === 'failing'
            ? 'Kept on this phone: Piper is reachable but answered with an error (' + entry.status + '); it will be sent again shortly.'
            : 'Kept on this phone; it will be sent when Piper is reachable.';
          return new Response('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">' +
            '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Kept — Piper</title>' +
            '<link rel="stylesheet" href="/app.css"></head><body><main><h1 id="outcome">Kept on this phone</h1>' +
            '<p id="kept-note" data-state="' + entry.state + '">' + note + '</p><p><a href="/">Home</a></p></main></body></html>',
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
            function keep() {
              return withStore('readwrite', function (store) { return store.put(entry); }).then(function () {
                if (self.registration.sync) self.registration.sync.register('piper-outbox').catch(function () {});
                return keptPage(entry);
              });
            }
            // A refusal is the server's own page or answer, its reason said there.
            return send(entry, accept, request.mode === 'navigate').then(function (response) {
              if (verdict(response) !== 'failing') return response;
              entry.tries = 1;
              entry.state = 'failing';
              entry.status = response.status;
              entry.next = Date.now() + 2000;
              return keep();
            }, function () {
              entry.state = 'unreachable';
              return keep();
            });
          });
        }
        self.addEventListener('install', function () { self.skipWaiting(); });
        self.addEventListener('activate', function (event) { event.waitUntil(self.clients.claim()); });
        self.addEventListener('sync', function (event) { if (event.tag === 'piper-outbox') event.waitUntil(flush(false)); });
        self.addEventListener('message', function (event) {
          if (event.data === 'flush' || event.data === 'flush-due') event.waitUntil(flush(event.data === 'flush-due'));
        });
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
