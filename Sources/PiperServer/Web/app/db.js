'use strict';
// The phone's outbox, one definition for the page (app.js, loaded before it) and the service
// worker (sw.js, by importScripts): IndexedDB database 'piper', version 1, one object store
// 'outbox' keyed by each share's idempotency key. An entry is
//   { key, fields: [{ name, value } | { name, file, fileName }], kept: ms,
//     state: 'unreachable' | 'failing' | 'refused', status, reason, tries, last: ms, next: ms }
// and stays until Piper has taken it (2xx), or the person removes it.
var PiperOutbox = (function () {
  var NAME = 'piper', VERSION = 1, STORE = 'outbox';
  function open() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(NAME, VERSION);
      request.onupgradeneeded = function () { request.result.createObjectStore(STORE, { keyPath: 'key' }); };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }
  // Runs `work(store)` in one transaction; resolves with its request's result once committed.
  function run(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var transaction = db.transaction(STORE, mode);
        var request = work(transaction.objectStore(STORE));
        transaction.oncomplete = function () { db.close(); resolve(request ? request.result : undefined); };
        transaction.onerror = function () { db.close(); reject(transaction.error); };
      });
    });
  }
  // What a kept share carries, as a person knows it: its links and file names (the text's
  // words only when it has no link), never the form's field names.
  function items(entry) {
    var shown = [];
    entry.fields.forEach(function (field) {
      if (field.file) { shown.push(field.fileName); return; }
      if (field.name === 'url' && field.value) { shown.push(field.value); return; }
      if (field.name === 'text') (field.value.match(/https?:\/\/[^\s<>"]+/g) || []).forEach(function (link) { shown.push(link); });
    });
    if (!shown.length) {
      entry.fields.forEach(function (field) { if (!field.file && field.value && field.name !== 'key') shown.push(field.value); });
    }
    return shown.filter(function (item, index) { return shown.indexOf(item) === index; });
  }
  return {
    all: function () { return run('readonly', function (store) { return store.getAll(); }); },
    get: function (key) { return run('readonly', function (store) { return store.get(key); }); },
    put: function (entry) { return run('readwrite', function (store) { return store.put(entry); }); },
    remove: function (key) { return run('readwrite', function (store) { return store.delete(key); }); },
    items: items
  };
})();
