/* Trex Scorekeeper: the game page and the scoreboard refresh themselves when the game changes
   (a deal saved on another phone). Without it they show the game as it was loaded. The game
   page also counts the deals this phone holds and has not sent yet. */
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
  var live = document.getElementById("live");
  if (!live || !live.getAttribute("data-poll") || !window.fetch || !window.DOMParser) { return; }
  var busy = false;
  var poll = function () {
    if (busy || document.hidden) { return; }
    busy = true;
    fetch(live.getAttribute("data-poll"), {cache: "no-cache"})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (state) {
        if (!state || state.version === live.getAttribute("data-version")) { return null; }
        return fetch(location.href, {cache: "no-store"})
          .then(function (r) { return r.ok ? r.text() : null; })
          .then(function (html) {
            var fresh = html && new DOMParser().parseFromString(html, "text/html")
              .getElementById("live");
            if (!fresh) { return; }
            live.replaceChildren.apply(live, Array.prototype.slice.call(fresh.childNodes));
            live.setAttribute("data-version", fresh.getAttribute("data-version"));
          });
      })
      .catch(function () {})
      .then(function () { busy = false; });
  };
  setInterval(poll, 1000 * Number(live.getAttribute("data-every") || 3));
  document.addEventListener("visibilitychange", poll);
})();
