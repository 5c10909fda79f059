/* Trex Scorekeeper: the game page and the scoreboard refresh themselves when the game changes
   (a deal saved on another phone). Without it they show the game as it was loaded. */
"use strict";
(function () {
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
            if (window.fitNames) { window.fitNames(live); }
            live.setAttribute("data-version", fresh.getAttribute("data-version"));
          });
      })
      .catch(function () {})
      .then(function () { busy = false; });
  };
  setInterval(poll, 1000 * Number(live.getAttribute("data-every") || 3));
  document.addEventListener("visibilitychange", poll);
})();
