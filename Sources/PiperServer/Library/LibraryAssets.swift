/// The library page's own stylesheet and script (same-origin files: the CSP allows no inline
/// script or style).
enum LibraryAssets {
    static let css = """
        main.library{max-width:48rem}
        .filter input[type=search]{width:70%;padding:.5rem;font-size:1rem}
        .group h2{border-bottom:2px solid #b3541e;padding-bottom:.2rem}.group-feed{font-size:.8rem;font-weight:400;margin-left:.5rem}
        .item{padding:.8rem 0;border-bottom:1px solid #ddd;overflow:hidden}.item h3{margin:.2rem 0}
        .item .cover{float:right;margin-left:.8rem;border-radius:4px;object-fit:cover}
        .item audio,.item video{width:100%;margin:.4rem 0}.item video{max-height:20rem;background:#000}
        .facts{margin:.2rem 0;color:#555;font-size:.9rem}
        ol.chapters{margin:.2rem 0 .4rem;padding-left:1.4rem;font-size:.95rem}
        form.remove button{font-size:.8rem;padding:.2rem .6rem;margin:0;color:#a00}
        .notice{background:#eef6e8;padding:.5rem}
        #feed-url{width:100%;box-sizing:border-box;padding:.4rem;font-family:monospace;font-size:.85rem}
        """

    /// Filters as one types (the `?q=` form works without it), makes chapter links seek their
    /// player, and asks before a removal.
    static let js = """
        'use strict';
        (function () {
          var filter = document.getElementById('filter');
          var items = Array.prototype.slice.call(document.querySelectorAll('.item'));
          var count = document.getElementById('count');
          function apply() {
            var words = filter.value.toLowerCase().split(/\\s+/).filter(Boolean);
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
        """
}
