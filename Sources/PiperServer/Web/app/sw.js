'use strict';
// The worker. Pages come from the network; when Piper cannot be reached (no answer, or the
// gateway error a proxy such as Caddy gives while Piper is down: 502, 503 or 504 that is not
// Piper's own page), the app shell answers instead: styles, script and icons from this worker's
// cache, and a page with the share box and the shares waiting on this phone.
//
// A share that cannot be sent (a home server and a phone out of the house) is kept on the phone
// in IndexedDB (db.js), fields and files, and sent when Piper is back: by Background Sync where
// the browser has it, when the app opens or comes online, and while a page is open on a timer
// (2 s, 4 s… up to 5 s while Piper is unreachable, asking its /healthz first so nothing is
// uploaded in vain; up to 5 minutes while it answers with errors). Every share carries an idempotency key, so a retry after a lost answer never makes a
// second job. An entry leaves the phone only when Piper took it (2xx) or the person removes it:
// a refusal (4xx but 408, 425, 429) stays, with its reason, and is sent again only when asked;
// 5xx and 408/425/429 are tried again.
importScripts('/db.js');

var SHELL_CACHE = 'piper-shell-2';
var SHELL = ['/app.css', '/app.js', '/db.js', '/shares.js', '/manifest.webmanifest', '/icon-192.png', '/icon-512.png'];
var CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
  "manifest-src 'self'; worker-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

function newKey() {
  if (self.crypto && self.crypto.randomUUID) return self.crypto.randomUUID();
  return Date.now().toString(36) + '-' + Math.random().toString(36).slice(2, 12);
}
function escaped(text) {
  return String(text).replace(/[&<>"']/g, function (c) { return '&#' + c.charCodeAt(0) + ';'; });
}
function unescaped(text) {
  var named = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, function (whole, name) {
    if (name[0] !== '#') return named[name.toLowerCase()] || whole;
    return String.fromCodePoint(name[1].toLowerCase() === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10));
  });
}
function formOf(fields) {
  var form = new FormData();
  fields.forEach(function (field) {
    if (field.file) form.append(field.name, field.file, field.fileName); else form.append(field.name, field.value);
  });
  return form;
}
// A proxy's answer for a Piper that is down: a gateway status without Piper's own marks (its
// pages carry a Content-Security-Policy, its errors are JSON).
function gatewayError(response) {
  if ([502, 503, 504].indexOf(response.status) < 0) return false;
  var type = response.headers.get('Content-Type') || '';
  return !response.headers.get('Content-Security-Policy') && type.indexOf('application/json') < 0;
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
// What an answer means: taken (2xx, or the 303 a navigation gets); Piper away (a proxy's
// gateway error); not taken for now (5xx, 408, 425, 429: Piper is reachable but failing, the
// share is sent again later); or refused (any other 4xx: kept with its reason, not sent again
// on its own).
function verdict(response) {
  if (response.type === 'opaqueredirect' || (response.status >= 200 && response.status < 400)) return 'taken';
  if (gatewayError(response)) return 'unreachable';
  if (response.status >= 500 || [408, 425, 429].indexOf(response.status) >= 0) return 'failing';
  return 'refused';
}
// The reason Piper gave: its JSON's `error`, or its page's `#reason` line.
function reasonOf(response) {
  if (gatewayError(response)) return Promise.resolve('its proxy answered ' + response.status);
  return response.clone().text().then(function (body) {
    try { return JSON.parse(body).error || ''; } catch (notJSON) {}
    var line = /<p class="error" id="reason">([^<]*)<\/p>/.exec(body);
    return line ? unescaped(line[1]) : '';
  }, function () { return ''; }).then(function (reason) {
    if (response.status === 401) return reason || 'Piper does not know this phone: it is not paired (401).';
    return reason || ('Piper answered ' + response.status);
  });
}
// Tried again after 2 s, 4 s, 8 s… up to 5 s while unreachable (a try is one small GET), up to 5 minutes while failing.
function later(entry, state, status, reason) {
  entry.tries = (entry.tries || 0) + 1;
  entry.state = state;
  entry.status = status;
  entry.reason = reason;
  entry.last = Date.now();
  entry.next = entry.last + Math.min(state === 'unreachable' ? 5000 : 300000, 2000 * Math.pow(2, entry.tries - 1));
  return PiperOutbox.put(entry);
}
function refused(entry, status, reason) {
  entry.state = 'refused';
  entry.status = status;
  entry.reason = reason;
  entry.last = Date.now();
  entry.next = 0;
  return PiperOutbox.put(entry);
}
function attempt(entry) {
  return send(entry).then(function (response) {
    var seen = verdict(response);
    if (seen === 'taken') return PiperOutbox.remove(entry.key);
    return reasonOf(response).then(function (reason) {
      if (seen === 'refused') return refused(entry, response.status, reason);
      return later(entry, seen, response.status, reason);
    });
  }, function () { return later(entry, 'unreachable', 0, ''); });
}
function tell(message) {
  return self.clients.matchAll({ includeUncontrolled: true }).then(function (clients) {
    clients.forEach(function (client) { client.postMessage(message); });
  });
}
// Whether Piper answers at all (its /healthz, any answer but a proxy's gateway error): asked
// before kept shares are sent, so a share's body (files too) is not uploaded while Piper is away.
// Resolves with null when it answers, else with what came instead (a gateway status, or 0).
function away() {
  return fetch('/healthz', { cache: 'no-store', credentials: 'same-origin' }).then(function (response) {
    return gatewayError(response) ? response.status : null;
  }, function () { return 0; });
}
var flushing = null;
// Sends the kept shares (`due`: only those whose next try has come; `only`: one entry, refused or
// not, as the person's "Send now" asks). Resolves with how many wait still.
function flush(due, only) {
  if (flushing && !only) return flushing;
  var run = PiperOutbox.all().then(function (entries) {
    var now = entries.filter(function (entry) {
      return only ? entry.key === only : !(entry.state === 'refused' || (due && entry.next && entry.next > Date.now() + 250));
    });
    if (!now.length) return null;
    return away().then(function (status) {
      return now.reduce(function (done, entry) {
        var tried = status === null ? function () { return attempt(entry); }
          : function () { return later(entry, 'unreachable', status, status ? 'its proxy answered ' + status : ''); };
        return done.then(function () { return tried().catch(function () {}); });
      }, Promise.resolve());
    });
  }).then(function () { return tell('outbox-changed'); })
    .then(function () { return PiperOutbox.all(); })
    .then(function (left) { return left.filter(function (entry) { return entry.state !== 'refused'; }).length; })
    .catch(function () { return 0; });
  if (only) return run;
  flushing = run.then(function (left) { flushing = null; return left; });
  return flushing;
}
function page(title, body, status) {
  return new Response('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><title>' + escaped(title) + ' — Piper</title>' +
    '<link rel="manifest" href="/manifest.webmanifest"><link rel="icon" href="/icon-192.png" type="image/png">' +
    '<link rel="stylesheet" href="/app.css"><script src="/db.js" defer></script><script src="/app.js" defer></script></head>' +
    '<body><main><header><a href="/" class="brand">Piper</a> · <a href="/library">Library</a></header>' + body + '</main></body></html>',
    { status: status, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': CSP, 'Cache-Control': 'no-store' } });
}
var WAITING = '<section id="waiting-section" hidden><h2>Waiting on this phone</h2>' +
  '<p class="muted">Kept here until Piper takes them; sent on their own when it is back.</p><ul class="shares" id="waiting"></ul></section>';
function why(state, status) {
  if (state === 'failing') return 'Piper is reachable but answered with an error (' + status + '); it is sent again shortly.';
  if (status) return 'Piper is not answering (its proxy answered ' + status + '); it is sent on its own when Piper is back.';
  return 'Piper is not reachable from this phone; it is sent on its own when it is.';
}
function keptPage(entry) {
  var items = PiperOutbox.items(entry).map(function (item) { return '<li>' + escaped(item) + '</li>'; }).join('');
  return page('Kept', '<h1 id="outcome">Kept on this phone</h1><ul class="shares" id="kept">' + items + '</ul>' +
    '<p id="kept-note" data-state="' + escaped(entry.state) + '">' + escaped(why(entry.state, entry.status)) + '</p>' +
    WAITING + '<p><a href="/" class="button">Home</a></p>', 202);
}
// A share Piper refused for this phone's credential: its reason, what it carried (kept here), and
// how to pair again.
function refusedPage(entry) {
  var items = PiperOutbox.items(entry).map(function (item) { return '<li>' + escaped(item) + '</li>'; }).join('');
  var pair = entry.status === 401
    ? '<p id="pair-again">To pair this phone again: run <code>piper pair</code> on the server and open the link it prints here. ' +
      'Then, on Piper\u2019s home page, Send again.</p>' : '';
  return page('Not shared', '<h1 id="outcome">Not shared</h1><p class="error" id="reason">' + escaped(entry.reason) + '</p>' +
    '<p>Kept on this phone, to send again once this is fixed:</p><ul class="shares" id="kept">' + items + '</ul>' + pair +
    '<p><a href="/" class="button">Home</a></p>', entry.status);
}
// The app shell: what a person can do while Piper is away (share; see what waits).
function shellPage(status) {
  var note = status ? 'Piper is not answering right now (its proxy answered ' + status + ').' : 'Piper can\u2019t be reached from this phone right now.';
  return page('Share', '<p class="notice" id="offline-note">' + escaped(note) +
    ' You can still share: it is kept on this phone and sent when Piper is back.</p>' +
    '<h1>Share a link</h1><form method="post" action="/share" id="share-form"><label for="url">Link</label>' +
    '<input type="url" id="url" name="url" placeholder="https://…" required><button type="submit">Share</button></form>' + WAITING, 200);
}
function share(request) {
  var accept = request.headers.get('Accept') || 'text/html';
  var navigation = request.mode === 'navigate';
  return request.formData().then(function (form) {
    var key = form.get('key') || request.headers.get('Idempotency-Key') || newKey();
    var fields = [];
    form.forEach(function (value, name) {
      if (name === 'key') return;
      if (typeof value === 'string') fields.push({ name: name, value: value });
      else fields.push({ name: name, file: value, fileName: value.name || 'file' });
    });
    var entry = { key: key, fields: fields, kept: Date.now(), last: Date.now(), tries: 1 };
    function keep(state, status, reason) {
      entry.state = state;
      entry.status = status;
      entry.reason = reason;
      entry.next = Date.now() + 2000;
      return PiperOutbox.put(entry).then(function () {
        if (self.registration.sync) self.registration.sync.register('piper-outbox').catch(function () {});
        return tell('outbox-changed');
      }).then(function () { return keptPage(entry); });
    }
    return send(entry, accept, navigation).then(function (response) {
      var seen = verdict(response);
      if (seen === 'taken') return response;
      return reasonOf(response).then(function (reason) {
        // A refusal is the server's own page or answer, its reason said there. One of this
        // phone's credential (401, 403) keeps what it carried here, to send again once paired
        // again (or to remove); bad input (400, 409, 413…) is not kept.
        if (seen === 'refused') {
          if (response.status !== 401 && response.status !== 403) return response;
          return refused(entry, response.status, reason).then(function () { return tell('outbox-changed'); })
            .then(function () { return navigation ? refusedPage(entry) : response; });
        }
        return keep(seen, response.status, reason);
      });
    }, function () { return keep('unreachable', 0, ''); });
  });
}
function shellFile(request) {
  return fetch(request).then(function (response) {
    if (response.ok) {
      var copy = response.clone();
      caches.open(SHELL_CACHE).then(function (cache) { return cache.put(request, copy); }).catch(function () {});
      return response;
    }
    if (!gatewayError(response)) return response;
    return caches.match(request).then(function (kept) { return kept || response; });
  }, function (error) {
    return caches.match(request).then(function (kept) { if (kept) return kept; throw error; });
  });
}
self.addEventListener('install', function (event) {
  self.skipWaiting();
  event.waitUntil(caches.open(SHELL_CACHE).then(function (cache) { return cache.addAll(SHELL); }).catch(function () {}));
});
self.addEventListener('activate', function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name !== SHELL_CACHE; }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});
// Background Sync: a try that leaves shares waiting fails, so the browser tries again later.
self.addEventListener('sync', function (event) {
  if (event.tag !== 'piper-outbox') return;
  event.waitUntil(flush(false).then(function (left) { if (left) throw new Error(left + ' shares wait on this phone'); }));
});
self.addEventListener('message', function (event) {
  var data = event.data || {};
  if (data === 'flush' || data === 'flush-due') event.waitUntil(flush(data === 'flush-due'));
  else if (data.send) event.waitUntil(flush(false, data.send));
});
self.addEventListener('fetch', function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === 'POST' && url.pathname === '/share') {
    event.respondWith(share(request));
    return;
  }
  if (request.method !== 'GET') return;
  if (SHELL.indexOf(url.pathname) >= 0) {
    event.respondWith(shellFile(request));
    return;
  }
  if (request.mode !== 'navigate') return;
  event.respondWith(fetch(request).then(function (response) {
    return gatewayError(response) ? shellPage(response.status) : response;
  }, function () { return shellPage(0); }));
});
