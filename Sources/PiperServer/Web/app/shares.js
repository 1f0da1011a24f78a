(function () {
  'use strict';
  function two(n) { return (n < 10 ? '0' : '') + n; }
  function local(iso) {
    var when = new Date(iso), now = new Date();
    var clock = two(when.getHours()) + ':' + two(when.getMinutes());
    if (when.toDateString() === now.toDateString()) return clock;
    return when.getFullYear() + '-' + two(when.getMonth() + 1) + '-' + two(when.getDate()) + ' ' + clock;
  }
  // The server's own way of writing a time (WebPage.time): "2026-12-06 14:05 UTC".
  function utc(iso) { return iso.slice(0, 16).replace('T', ' ') + ' UTC'; }
  function localize(root) {
    root.querySelectorAll('time[datetime]').forEach(function (node) { node.textContent = local(node.getAttribute('datetime')); });
  }
  localize(document);
  var recent = document.getElementById('recent');
  if (!recent || !recent.querySelector('[data-following]')) return;
  function show(item, share) {
    var state = item.querySelector('.state');
    if (state) {
      state.textContent = share.nextAttempt ? share.state.replace(utc(share.nextAttempt), local(share.nextAttempt)) : share.state;
    }
    var detail = item.querySelector('details.detail');
    if (share.detail) {
      if (!detail) {
        detail = document.createElement('details');
        detail.className = 'detail';
        detail.appendChild(document.createElement('summary')).textContent = 'Details';
        detail.appendChild(document.createElement('code'));
        state.parentNode.insertBefore(detail, state.nextSibling);
      }
      detail.querySelector('code').textContent = share.detail;
    } else if (detail) {
      detail.remove();
    }
    var retry = item.querySelector('form.retry');
    if (retry) {
      if (share.retry) retry.setAttribute('action', share.retry);
      retry.hidden = !share.retry;
    }
  }
  function poll() {
    fetch('/api/shares', { credentials: 'same-origin', headers: { 'Accept': 'application/json' } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data) return;
        var live = false;
        data.shares.forEach(function (share) {
          var item = recent.querySelector('[data-share="' + share.id + '"]');
          if (!item) return;
          show(item, share);
          if (share.live) live = true;
        });
        if (live) setTimeout(poll, 2000);
      });
  }
  setTimeout(poll, 2000);
})();
