'use strict';
// Progressive enhancement only: every page works without it. Needs db.js (loaded before it).
//
// Shares kept on this phone (PiperOutbox): those waiting, each with what it is, when it was kept,
// its last try and why it failed, a Send now and a Remove; those Piper refused, with its reason
// and the way to pair again, a Send again and a Remove. A timer asks the worker to send each
// again when it is due (at least every 15 s while the page is open), as does opening the page,
// coming back online and coming back into view.
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
  var after = document.getElementById('share-form') || main.querySelector('header');
  main.insertBefore(part, after ? after.nextSibling : main.firstChild);
  return part.querySelector('ul');
}
// `14:32`, or `3 Dec 14:32` another day, in this phone's time zone.
function when(ms) {
  var date = new Date(ms), now = new Date();
  var time = date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return date.toDateString() === now.toDateString() ? time : date.toLocaleDateString([], { day: 'numeric', month: 'short' }) + ' ' + time;
}
function failure(entry) {
  if (entry.state === 'failing') {
    return 'Piper is reachable but answered with an error (' + entry.status + (entry.reason ? ': ' + entry.reason : '') + ').';
  }
  if (entry.status) return 'Piper is not answering (its proxy answered ' + entry.status + ').';
  return 'Piper is not reachable from this phone.';
}
function waitingLine(entry) {
  var next = entry.next ? Math.max(1, Math.round((entry.next - Date.now()) / 1000)) : 0;
  return 'Kept ' + when(entry.kept) + '. Last tried ' + when(entry.last || entry.kept) + ': ' + failure(entry)
    + (next ? ' Trying again in ' + next + ' s.' : ' Sent when it is.');
}
function button(item, label, action) {
  var control = item.appendChild(document.createElement('button'));
  control.type = 'button';
  control.textContent = label;
  control.addEventListener('click', action);
  return control;
}
// A kept share as a list item: what it carries, a line about it, and its buttons.
function entryItem(entry, className, text, sendLabel) {
  var item = document.createElement('li');
  item.setAttribute('data-key', entry.key);
  item.appendChild(document.createElement('strong')).textContent = PiperOutbox.items(entry).join(' · ');
  item.appendChild(document.createElement('br'));
  var line = item.appendChild(document.createElement('span'));
  line.className = className;
  line.textContent = text;
  var actions = item.appendChild(document.createElement('div'));
  actions.className = 'actions';
  button(actions, sendLabel, function () { ask({ send: entry.key }); }).className = 'send';
  button(actions, 'Remove', function () { PiperOutbox.remove(entry.key).then(showWaiting); }).className = 'remove';
  return item;
}
function showWaiting() {
  if (!window.indexedDB || !window.PiperOutbox) return;
  PiperOutbox.all().then(function (all) {
    var waiting = all.filter(function (entry) { return entry.state !== 'refused'; });
    var refused = all.filter(function (entry) { return entry.state === 'refused'; });
    if (waiting.length || document.getElementById('waiting')) {
      var list = section('waiting', 'Waiting on this phone', 'Kept here until Piper takes them; sent on their own when it is back.');
      list.textContent = '';
      waiting.forEach(function (entry) {
        list.appendChild(entryItem(entry, 'state ' + (entry.state || 'unreachable'), waitingLine(entry), 'Send now'));
      });
      list.parentNode.hidden = waiting.length === 0;
    }
    if (refused.length || document.getElementById('refused')) {
      var gone = section('refused', 'Not sent', 'Piper refused these; they stay here until you send them again or remove them.');
      gone.textContent = '';
      refused.forEach(function (entry) {
        var item = gone.appendChild(entryItem(entry, 'error reason', entry.reason, 'Send again'));
        if (entry.status === 401) {
          var pair = item.insertBefore(document.createElement('p'), item.querySelector('.actions'));
          pair.className = 'muted pair-again';
          pair.textContent = 'To pair this phone again: run piper pair on the server and open the link it prints here, then Send again.';
        }
      });
      gone.parentNode.hidden = refused.length === 0;
    }
    // Due tries, and at least one every 15 s while a share waits and the page is open.
    var due = waiting.map(function (entry) { return entry.next || 0; }).filter(Boolean);
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
    if (waiting.length) {
      var wait = Math.min(15000, due.length ? Math.min.apply(null, due) - Date.now() : 15000);
      retryTimer = setTimeout(function () { ask('flush-due'); }, Math.max(500, wait));
    }
  }, function () {});
}
// On the app shell (the worker's page while Piper was away): says so once Piper answers again.
function checkBack() {
  var note = document.getElementById('offline-note');
  if (!note || note.hasAttribute('data-back')) return;
  fetch('/healthz', { cache: 'no-store' }).then(function (response) {
    if (!response.ok || note.hasAttribute('data-back')) return;
    note.setAttribute('data-back', '');
    note.textContent = 'Piper is back. ';
    var open = note.appendChild(document.createElement('a'));
    open.href = '/';
    open.className = 'button';
    open.textContent = 'Open Piper';
  }, function () {});
}
if (document.getElementById('offline-note')) setInterval(checkBack, 5000);
function ask(message) {
  navigator.serviceWorker.ready.then(function (registration) { if (registration.active) registration.active.postMessage(message); });
}
if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('/sw.js').catch(function () {});
  navigator.serviceWorker.addEventListener('message', function (event) { if (event.data === 'outbox-changed') { showWaiting(); checkBack(); } });
  window.addEventListener('online', function () { ask('flush'); });
  document.addEventListener('visibilitychange', function () { if (document.visibilityState === 'visible') ask('flush'); });
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
// /connect-x: a chosen cookies.txt is read into the form's text (the paste box works without this).
var cookieFile = document.getElementById('cookies-file');
if (cookieFile && window.FileReader) {
  cookieFile.addEventListener('change', function () {
    var file = cookieFile.files && cookieFile.files[0];
    if (!file) return;
    var reader = new FileReader();
    reader.onload = function () { document.getElementById('cookies').value = String(reader.result); };
    reader.readAsText(file);
  });
}
