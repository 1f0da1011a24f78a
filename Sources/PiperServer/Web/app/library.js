'use strict';
(function () {
  var filter = document.getElementById('filter');
  var items = Array.prototype.slice.call(document.querySelectorAll('.item'));
  var count = document.getElementById('count');
  function apply() {
    var words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    items.forEach(function (item) {
      var text = item.getAttribute('data-text') || '';
      item.hidden = !words.every(function (word) { return text.indexOf(word) >= 0; });
      if (!item.hidden) { shown += 1; }
    });
    document.querySelectorAll('.group').forEach(function (group) {
      group.hidden = !group.querySelector('.item:not([hidden])');
    });
    if (count) { count.textContent = words.length ? shown + ' of ' + items.length + ' items match' : items.length + (items.length === 1 ? ' item' : ' items'); }
  }
  if (filter) { filter.addEventListener('input', apply); }
  document.addEventListener('click', function (event) {
    var link = event.target.closest ? event.target.closest('a[data-start]') : null;
    if (!link) { return; }
    var player = document.getElementById(link.getAttribute('data-player'));
    if (!player) { return; }
    event.preventDefault();
    player.currentTime = parseFloat(link.getAttribute('data-start'));
    var playing = player.play();
    if (playing && playing.catch) { playing.catch(function () {}); }
  });
  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains('remove')) { return; }
    if (!window.confirm('Remove “' + form.getAttribute('data-title') + '” from the library? Its file is deleted.')) { event.preventDefault(); }
  });
})();
