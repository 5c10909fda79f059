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

  /* Offline at the table (static/sw.js keeps the pages and an outbox). A deal form sent says
     the result as entered, in the page's words, for the outbox to show while it waits. */
  var sw = navigator.serviceWorker, box = document.getElementById("outbox");
  if (!sw) { return; }
  sw.register("/sw.js").catch(function () {});
  var el = function (parent, tag, text) {
    var node = parent.appendChild(document.createElement(tag));
    node.textContent = text || "";
    return node;
  };
  each("form[data-title]", null, function (f) {
    f.addEventListener("submit", function () {
      var lines = [];
      each("fieldset.pick", f, function (fs) {
        var on = fs.querySelector(":checked"), legend = fs.querySelector("legend");
        var said = (legend.querySelector(".sr") || legend).textContent;
        if (on && on.value) { lines.push([said, on.parentNode.textContent]); }
      });
      var note = el(f, "input");
      note.type = "hidden";
      note.name = "entered";
      note.value = JSON.stringify({title: f.getAttribute("data-title"), lines: lines});
    });
  });
  var ask = function (what) {
    sw.ready.then(function (ready) { ready.active.postMessage(what); });
  };
  var words = box && JSON.parse(box.getAttribute("data-words"));
  var digits = function (n) {
    return String(n).replace(/\d/g, function (d) { return words.digits[d]; });
  };
  sw.addEventListener("message", function (event) {
    var said = event.data;
    if (said.refused) {  /* the server's own answer to it, as a form sent again shows it */
      var f = el(document.body, "form");
      f.method = "post";
      f.action = said.refused.action;
      said.refused.fields.forEach(function (pair) {
        var input = el(f, "input");
        input.type = "hidden";
        input.name = pair[0];
        input.value = pair[1];
      });
      f.submit();
    } else if (said.sent && box && box.hasAttribute("data-reload")) {
      location.reload();
    } else if (said.sent !== undefined && box) {
      ask({game: Number(box.getAttribute("data-game"))});
    } else if (said.waiting && box) {
      box.replaceChildren();
      said.waiting.forEach(function (deal) {
        var card = el(box, "section");
        card.className = "card waiting";
        el(card, "h2", words.waiting.replace("{n}", digits(deal.number)));
        el(card, "p", deal.title).className = "muted";
        var list = el(card, "ul");
        list.className = "notes";
        deal.lines.forEach(function (line) {  /* "Who took the K♥? Bilal", "Aya: 3" */
          var item = el(list, "li");
          el(item, "bdi", line[0]);
          item.append(/[?؟]$/.test(line[0]) ? " " : ": ");
          el(item, "bdi", line[1]);
        });
        el(card, "p", words.unchecked).className = "muted";
      });
      box.hidden = !said.waiting.length;
    }
  });
  var send = function () { ask({send: 1}); };
  send();
  window.addEventListener("online", send);
  setInterval(send, 15000);
})();
