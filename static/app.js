/* Trex Scorekeeper: small conveniences on top of forms that work without JavaScript. */
"use strict";
(function () {
  var each = function (sel, root, fn) {
    Array.prototype.forEach.call((root || document).querySelectorAll(sel), fn);
  };
  var picked = function (fs) {
    var input = fs.querySelector("input:checked");
    return input ? input.value : null;
  };

  /* Fill the one missing part of a group (the 4th count, the last place) and mark it. */
  function autoFill(group, compute) {
    var parts = Array.prototype.slice.call(group.querySelectorAll("fieldset.pick"));
    var auto = null;
    var mark = function (part) {
      each("label.auto", group, function (l) { l.classList.remove("auto"); });
      if (part) {
        var input = part.querySelector("input:checked");
        if (input) { input.parentNode.classList.add("auto"); }
      }
    };
    group.addEventListener("change", function (event) {
      var part = event.target.closest("fieldset.pick");
      if (part === auto) { auto = null; mark(null); }
      var values = parts.map(function (p) { return p === auto ? null : picked(p); });
      var missing = [];
      values.forEach(function (v, i) { if (v === null) { missing.push(i); } });
      if (missing.length !== 1) { return; }
      var value = compute(values);
      var target = parts[missing[0]];
      var input = value === null ? null : target.querySelector('input[value="' + value + '"]');
      if (!input) { return; }
      input.checked = true;
      auto = target;
      mark(target);
    });
  }

  each("[data-sum]", null, function (group) {
    var total = Number(group.getAttribute("data-sum"));
    autoFill(group, function (values) {
      var rest = total;
      values.forEach(function (v) { if (v !== null) { rest -= Number(v); } });
      return rest >= 0 && rest <= total ? String(rest) : null;
    });
  });

  each("[data-order]", null, function (group) {
    autoFill(group, function (values) {
      var given = values.filter(function (v) { return v !== null; });
      var left = ["0", "1", "2", "3"].filter(function (s) { return given.indexOf(s) < 0; });
      return left.length === 1 ? left[0] : null;
    });
  });

  /* "Who led to that trick" only when the holder of a doubled card took it. */
  each("[data-leader]", null, function (box) {
    var prefix = box.getAttribute("data-leader");
    var taker = document.getElementById("f-" + prefix + "_taker");
    var holder = document.getElementById("f-" + prefix + "_doubled_by");
    var update = function () {
      var h = picked(holder);
      box.hidden = !(h && h === picked(taker));
    };
    taker.addEventListener("change", update);
    holder.addEventListener("change", update);
    update();
  });

  var el = function (tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  };

  /* Entry forms: the scores as the engine counts them (asked of the server) while the table
     taps, and the button saves at once. Without JavaScript it shows them on a page first. */
  var entry = document.querySelector("form[data-preview]");
  var box = document.getElementById("live-preview");
  if (entry && box && window.fetch && window.FormData) {
    /* its words: the page's (data-words) */
    var words = {};
    try { words = JSON.parse(box.getAttribute("data-words") || "{}"); } catch (e) { words = {}; }
    var send = entry.querySelector("button[data-save]");
    if (send) { send.value = "save"; send.textContent = send.getAttribute("data-save"); }
    var asked = 0;
    var show = function (answer) {
      var parts = [];
      if (answer.ok) {
        var table = el("table", "standings"), head = el("tr"), rows = el("tbody");
        [words.player, words.this_deal, words.total].forEach(function (text, i) {
          head.appendChild(el("th", i ? "num" : "", text));
        });
        table.appendChild(el("thead")).appendChild(head);
        answer.rows.forEach(function (row) {
          var tr = rows.appendChild(el("tr"));
          tr.appendChild(el("td")).appendChild(el("bdi", "", row.name));
          [[row.deal, row.deal_text], [row.total, row.total_text]].forEach(function (v) {
            tr.appendChild(el("td", "num"))
              .appendChild(el("span", v[0] < 0 ? "neg" : v[0] > 0 ? "pos" : "", v[1]));
          });
        });
        table.appendChild(rows);
        parts.push(table);
        if (answer.note) { parts.push(el("p", "warn", answer.note)); }
      } else if (answer.problems && answer.problems.length) {
        parts.push(el("p", "hint", answer.problems[0]));
      }
      box.replaceChildren.apply(box, parts);
      box.hidden = !parts.length;
    };
    var ask = function () {
      var mine = ++asked;
      fetch(entry.getAttribute("data-preview"), {method: "POST", body: new FormData(entry),
                                                 headers: {Accept: "application/json"}})
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (answer) { if (answer && mine === asked) { show(answer); } })
        .catch(function () {});
    };
    entry.addEventListener("change", ask);
    ask();
  }

  /* The scoreboard refreshes itself when the game changes (a deal saved on another phone). */
  var live = document.getElementById("live");
  if (live && live.getAttribute("data-poll") && window.fetch && window.DOMParser) {
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
  }

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
})();
