/* Trex Scorekeeper: the game page counts the deals this phone holds and has not sent yet
   (the service worker lists them): the next deal is the one after them, and only what the
   engine leaves open after their contracts is offered. Only the game page loads it. */
"use strict";
(function () {
  var next = document.getElementById("next"), box = document.getElementById("outbox"),
    held = box && box.getAttribute("data-known");
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
      next.querySelectorAll(".first-king").forEach(function (el) { el.hidden = true; });
      next.querySelectorAll("a[href*='contracts='], .chips label").forEach(function (el) {
        var input = el.querySelector("input"), shown = (open || []).some(function (o) {
          return input ? o.indexOf(code(input.value)) >= 0
            : o === code(decodeURIComponent(/contracts=([^&]*)/.exec(el.href)[1]));
        });
        el.hidden = !shown;
      });
      if (!open) {
        next.querySelectorAll("p, form, .options, .actions, details").forEach(function (el) {
          el.hidden = !el.hasAttribute("data-complete");
        });
      }
    }
  }
})();
