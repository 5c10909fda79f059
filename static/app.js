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

  /* a name wider than its cell: static/names.js fits them */
  var names = document.currentScript.src.replace(/app\.js/, "names.js");
  window.fitNames = function (root) {
    if (!window.fitting && [].some.call((root || document).querySelectorAll("bdi"), function (n) {
      var c = (n.closest("th,label") || n).getBoundingClientRect(), r = document.createRange();
      r.selectNodeContents(n);
      r = r.getBoundingClientRect();
      return r.left < c.left - 1 || r.right > c.right + 1;
    })) {
      document.head.appendChild(window.fitting = document.createElement("script")).src = names;
    }
  };
  window.fitNames();

  /* Offline at the table: static/sw.js keeps the pages and the deals saved meanwhile, sent
     when asked (now, back online, every 15 s); once sent, the game page shows them scored.
     Back online, the first try may still reach nothing (the network is not up yet): then it
     is tried again soon (after 0.5 s, 1 s, 1 s, 2 s, 4 s), not only at the next 15 s. */
  var sw = navigator.serviceWorker, box = document.getElementById("outbox"), soon = [];
  if (!sw) { return; }
  sw.register("/sw.js").catch(function () {});
  var send = function () {
    sw.ready.then(function (ready) { ready.active.postMessage({send: 1}); });
  };
  sw.addEventListener("message", function (event) {
    var said = event.data || {};
    if (said.unreached && said.left && soon.length) { setTimeout(send, soon.shift()); }
    if (!said.unreached) { soon = []; }
    if (!box || !said.sent) { return; }
    if (box.hasAttribute("data-reload")) { location.reload(); }
    box.hidden = !said.left;
  });
  send();
  window.addEventListener("online", function () { soon = [500, 1000, 1000, 2000, 4000]; send(); });
  setInterval(send, 15000);
})();
