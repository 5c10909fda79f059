/* Trex Scorekeeper: names where four stand side by side break only at a space (the sheets'
   CSS). A row of them shares its width by what each widest word needs (none under 60% of an
   equal share), and a word still too wide takes a smaller size, down to 9 px; one that even
   then does not fit breaks where it must. entry.js and live.js call it on what they draw. */
"use strict";
(function () {
  var all = function (sel, root) {
    return Array.prototype.slice.call((root || document).querySelectorAll(sel));
  };
  var wide = function (name) {  /* its widest word's width */
    var most = 0, r = document.createRange(), w = document.createTreeWalker(name, 4), t, m, re;
    while ((t = w.nextNode())) {
      re = /\S+/g;
      while ((m = re.exec(t.data))) {
        r.setStart(t, m.index);
        r.setEnd(t, re.lastIndex);
        most = Math.max(most, r.getBoundingClientRect().width);
      }
    }
    return most;
  };
  var sum = function (a) { return a.reduce(function (x, y) { return x + y; }, 0); };
  /* each one's share, or null for equal ones: each column first what its numbers (least)
     need, the rest by what its name needs beyond that */
  var shares = function (names, room, least) {
    var need = names.map(function (n) { return wide(n) + 10; }), equal = room / names.length;
    least = names.map(function (n, i) { return Math.max(equal * 0.6, least ? least[i] : 0); });
    if (Math.max.apply(null, need) <= equal || sum(least) >= room) { return null; }
    var more = need.map(function (n, i) { return Math.max(0, n - least[i]); });
    var spare = room - sum(least), ask = sum(more);
    return least.map(function (l, i) {
      var extra = ask > spare ? spare * more[i] / ask : more[i] + (spare - ask) / names.length;
      return (l + extra) / room;
    });
  };
  window.fitNames = function (root) {
    var names = all(".sheet thead .name, .chips bdi, .heads bdi, .bar thead bdi, .options bdi", root);
    names.forEach(function (n) { n.style.fontSize = n.style.overflowWrap = ""; });
    all(".sheet thead tr:first-child, .bar thead tr", root).forEach(function (row) {
      var cells = Array.prototype.slice.call(row.children), row_ = row.clientWidth;
      cells.forEach(function (c) { c.style.width = ""; });
      var heads = cells.slice(1).map(function (c) { return c.querySelector("bdi"); });
      var least = heads.map(function () { return 0; }), r = document.createRange();
      [].forEach.call(row.closest("table").rows, function (tr) {  /* the numbers, one line */
        if (tr === row || tr.cells.length !== cells.length) { return; }
        heads.forEach(function (h, i) {
          r.selectNodeContents(tr.cells[i + 1]);
          least[i] = Math.max(least[i], r.getBoundingClientRect().width + 10);
        });
      });
      if (heads.length < 2 || !heads.every(Boolean)) { return; }
      /* on the sheet, where the names need more, the deals' column gives up to half of its
         width (its labels end in "…") */
      var first = cells[0].offsetWidth, was = first;
      if (row.closest(".sheet") && sum(heads.map(wide)) + 10 * heads.length > row_ - first) {
        first -= Math.max(0, Math.min(first / 2, first - 60));
      }
      var parts = shares(heads, row_ - first, least) ||
        (first < was && heads.map(function () { return 1 / heads.length; }));
      if (!parts) { return; }
      first /= row_;  /* in shares: the table keeps to its width */
      cells[0].style.width = (100 * first).toFixed(2) + "%";
      parts.forEach(function (p, i) {
        cells[i + 1].style.width = (100 * (1 - first) * p).toFixed(2) + "%";
      });
    });
    all(".by-column", root).forEach(function (group) {
      var heads = all(".heads bdi", group);
      group.style.removeProperty("--cols");
      var parts = heads.length && shares(heads, heads.reduce(function (a, n) {
        return a + n.clientWidth;
      }, 0));
      if (parts) {
        group.style.setProperty("--cols", "44px " + parts.map(function (p) {
          return "minmax(0," + (4 * p).toFixed(3) + "fr)";
        }).join(" "));
      }
    });
    names.forEach(function (n) {
      var cell = n.closest("th, td, label, button, a") || n, s = getComputedStyle(cell);
      var room = cell.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
      var w = wide(n);
      if (room <= 0 || w <= room + 0.5) { return; }
      var size = parseFloat(getComputedStyle(n).fontSize) * room / w;
      for (; size > 9; size -= 0.5) {
        n.style.fontSize = size.toFixed(1) + "px";
        if (wide(n) <= room + 0.5) { break; }
      }
      n.style.fontSize = Math.max(size, 9).toFixed(1) + "px";
      n.setAttribute("data-fit", "");
      if (wide(n) > room + 0.5) { n.style.overflowWrap = "anywhere"; }
    });
  };
  window.fitNames();
  window.addEventListener("resize", function () { window.fitNames(); });
})();
