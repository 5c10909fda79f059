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
  var shares = function (names, room) {  /* each one's share, or null for equal ones */
    var need = names.map(function (n) { return wide(n) + 10; }), equal = room / names.length;
    if (Math.max.apply(null, need) <= equal) { return null; }
    need = need.map(function (n) { return Math.max(n, equal * 0.6); });
    var sum = need.reduce(function (a, b) { return a + b; });
    return need.map(function (n) { return n / sum; });
  };
  window.fitNames = function (root) {
    var names = all(".sheet thead .name, .chips bdi, .heads bdi, .bar thead bdi, .options bdi", root);
    names.forEach(function (n) { n.style.fontSize = n.style.overflowWrap = ""; });
    all(".sheet thead tr:first-child, .bar thead tr", root).forEach(function (row) {
      var cells = Array.prototype.slice.call(row.children), row_ = row.clientWidth;
      cells.forEach(function (c) { c.style.width = ""; });
      var heads = cells.slice(1).map(function (c) { return c.querySelector("bdi"); });
      var parts = heads.length > 1 && heads.every(Boolean) &&
        shares(heads, row_ - cells[0].offsetWidth);
      if (!parts) { return; }
      var first = cells[0].offsetWidth / row_;  /* in shares: the table keeps to its width */
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
