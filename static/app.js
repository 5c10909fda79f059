/* Trex Scorekeeper: small conveniences for pages with a form to send or a game open. The pages
   work without it. */
"use strict";
(function () {
  var each = function (sel, root, fn) {
    Array.prototype.forEach.call((root || document).querySelectorAll(sel), fn);
  };

  /* The screen stays on while a game is open, where the browser can (asked after a tap). */
  if (document.querySelector("[data-wake]") && navigator.wakeLock) {
    var lock = null, asking = false, wanted = false;
    var wake = function () {
      if (!wanted || lock || asking || document.visibilityState !== "visible") { return; }
      asking = true;
      navigator.wakeLock.request("screen").then(function (sentinel) {
        lock = sentinel;
        sentinel.addEventListener("release", function () { lock = null; });
      }).catch(function () {}).then(function () { asking = false; });
    };
    ["click", "keydown"].forEach(function (type) {
      document.addEventListener(type, function () { wanted = true; wake(); }, true);
    });
    document.addEventListener("visibilitychange", wake);
  }

  /* A double tap on a submit button sends the form once (the server also refuses repeats). */
  each("form[method=post]", null, function (f) {
    f.addEventListener("submit", function (event) {
      if (f.getAttribute("data-sent")) { event.preventDefault(); return; }
      f.setAttribute("data-sent", "1");
    });
  });
  window.addEventListener("pageshow", function () {
    each("form[data-sent]", null, function (f) { f.removeAttribute("data-sent"); });
  });

  /* A name wider than its cell in one of its words (app.css: names break only at a space)
     takes a smaller size, the size at which its widest word fits, down to FLOOR px (a name of
     11 letters in a quarter of a 360 px screen needs 9 or 10); only those cells, again when
     the screen turns. entry.js calls it for the bar's scores. */
  var NAMES = ".sheet thead .name, .chips bdi, .heads bdi, .bar thead bdi, .options bdi";
  var FLOOR = 9;
  var widest = function (name) {
    var most = 0, range = document.createRange(), walk = document.createTreeWalker(name, 4);
    for (var node = walk.nextNode(); node; node = walk.nextNode()) {
      var words = /\S+/g, m;
      while ((m = words.exec(node.textContent))) {
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        most = Math.max(most, range.getBoundingClientRect().width);
      }
    }
    return most;
  };
  /* The four columns of a row of names share its width by what each name's widest word needs
     (none under 60% of an equal share, where the numbers stand), where an equal share would
     leave one too narrow: a long name beside short ones keeps its size. Returns each one's
     share (adding up to 1), or null to keep them equal. */
  var shares = function (names, room) {
    var need = names.map(function (n) { return widest(n) + 10; });
    var equal = room / names.length;
    if (Math.max.apply(null, need) <= equal) { return null; }
    need = need.map(function (n) { return Math.max(n, equal * 0.6); });
    var total = need.reduce(function (a, b) { return a + b; }, 0);
    return need.map(function (n) { return n / total; });
  };
  var columns = function (root) {
    each(".sheet thead tr:first-child, .bar thead tr", root, function (row) {
      var cells = Array.prototype.slice.call(row.children, 1);
      var names = cells.map(function (c) { return c.querySelector("bdi"); });
      cells.forEach(function (c) { c.style.width = ""; });
      if (cells.length < 2 || names.some(function (n) { return !n; })) { return; }
      var room = row.clientWidth - row.children[0].offsetWidth;
      var parts = shares(names, room);
      if (parts) {
        cells.forEach(function (c, i) { c.style.width = (parts[i] * room).toFixed(1) + "px"; });
      }
    });
    each(".by-column", root, function (group) {
      var names = Array.prototype.slice.call(group.querySelectorAll(".heads bdi"));
      group.style.removeProperty("--cols");
      if (!names.length) { return; }
      var parts = shares(names, names.reduce(function (a, n) { return a + n.clientWidth; }, 0));
      if (parts) {
        group.style.setProperty("--cols", "44px " + parts.map(function (p) {
          return "minmax(0, " + (p * names.length).toFixed(3) + "fr)";
        }).join(" "));
      }
    });
  };
  var fit = window.fitNames = function (root) {
    each(NAMES, root, function (name) {
      name.style.fontSize = name.style.overflowWrap = "";
      name.removeAttribute("data-fit");
    });
    columns(root);
    each(NAMES, root, function (name) {
      var cell = name.closest("th, td, label, button, a") || name, style = getComputedStyle(cell);
      var room = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      var wide = widest(name);
      if (room <= 0 || wide <= room + 0.5) { return; }
      var size = parseFloat(getComputedStyle(name).fontSize) * room / wide;
      for (; size > FLOOR; size -= 0.5) {
        name.style.fontSize = size.toFixed(1) + "px";
        if (widest(name) <= room + 0.5) { break; }
      }
      name.style.fontSize = Math.max(size, FLOOR).toFixed(1) + "px";
      name.setAttribute("data-fit", "");
      /* a word that even then overflows (a name of 40 letters and no space) breaks where it
         must rather than be drawn over its neighbour's */
      if (widest(name) > room + 0.5) { name.style.overflowWrap = "anywhere"; }
    });
  };
  fit(document);
  var turned = null;
  window.addEventListener("resize", function () {
    clearTimeout(turned);
    turned = setTimeout(function () { fit(document); }, 50);
  });

  /* Offline at the table: static/sw.js keeps the pages and the deals saved meanwhile, sent
     when asked (now, back online, every 15 s); once sent, the game page shows them scored. */
  var sw = navigator.serviceWorker, box = document.getElementById("outbox");
  if (!sw) { return; }
  sw.register("/sw.js").catch(function () {});
  sw.addEventListener("message", function (event) {
    if (!box || !event.data.sent) { return; }
    if (box.hasAttribute("data-reload")) { location.reload(); }
    box.hidden = !event.data.left;
  });
  var send = function () {
    sw.ready.then(function (ready) { ready.active.postMessage({send: 1}); });
  };
  send();
  window.addEventListener("online", send);
  setInterval(send, 15000);
})();
