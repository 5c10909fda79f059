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

  /* Offline at the table: static/sw.js keeps the pages and the deals saved meanwhile, sent
     when asked (now, back online, every 15 s); once sent, the game page shows them scored. */
  var sw = navigator.serviceWorker, box = document.getElementById("outbox");
  var next = document.getElementById("next"), held = box && box.getAttribute("data-known");
  if (next && held && next.dataset.after) {
    /* The deals this phone holds that this page does not show yet (sw.js lists them): the
       next deal is the one after them, and only what the engine leaves open after their
       contracts is offered (data-after, the server's: no rule is written here). */
    var after = JSON.parse(next.dataset.after), used = {};
    var deals = JSON.parse(held).filter(function (d) { return d.k === "new" && d.n >= after.n; });
    var code = function (names) {
      return names.split(",").filter(Boolean).map(function (n) { return after.c.indexOf(n); })
        .sort().join("");
    };
    if (deals.length) {
      deals.forEach(function (d) { code(d.c).split("").forEach(function (i) { used[i] = 1; }); });
      var open = after.o[Object.keys(used).sort().join("")], n = next.querySelector("[data-n]");
      var digits = JSON.parse(box.dataset.words || '{"digits": "0123456789"}').digits;
      n.textContent = String(1 + Math.max.apply(null, deals.map(function (d) { return d.n; })))
        .replace(/\d/g, function (d) { return digits[d]; });
      each("a[href*='contracts='], .chips label", next, function (el) {
        var input = el.querySelector("input"), shown = (open || []).some(function (o) {
          return input ? o.indexOf(code(input.value)) >= 0
            : o === code(decodeURIComponent(/contracts=([^&]*)/.exec(el.href)[1]));
        });
        el.hidden = !shown;
      });
      if (!open) {
        each("p, form, .options, .actions, details", next, function (el) {
          el.hidden = !el.hasAttribute("data-complete");
        });
      }
    }
  }
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
