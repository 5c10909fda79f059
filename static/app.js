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

  /* Offline at the table: static/sw.js keeps the pages, and a deal saved meanwhile in an
     outbox, which it shows on them. A deal form sent says the result as tapped, in the page's
     words, for that; a deal the server refused once back comes here to be sent as a form, so
     that the phone shows the server's own answer (its message, the entry kept). */
  var sw = navigator.serviceWorker, box = document.getElementById("outbox");
  if (!sw) { return; }
  sw.register("/sw.js").catch(function () {});
  var hidden = function (f, name, value) {
    var input = f.appendChild(document.createElement("input"));
    input.type = "hidden";
    input.name = name;
    input.value = value;
  };
  each("form[data-title]", null, function (f) {
    f.addEventListener("submit", function () {
      var lines = [];
      each("fieldset.pick", f, function (fs) {
        var on = fs.querySelector(":checked"), legend = fs.querySelector("legend");
        if (on && on.value) {
          lines.push([(legend.querySelector(".sr") || legend).textContent, on.parentNode.textContent]);
        }
      });
      hidden(f, "entered", JSON.stringify({title: f.getAttribute("data-title"), lines: lines}));
    });
  });
  sw.addEventListener("message", function (event) {
    var said = event.data, f = document.createElement("form");
    if (said.refused) {
      f.method = "post";
      f.action = said.refused.action;
      said.refused.fields.forEach(function (pair) { hidden(f, pair[0], pair[1]); });
      document.body.appendChild(f).submit();
    } else if (said.sent && box && box.hasAttribute("data-reload")) {
      location.reload();
    } else if (said.sent && box && !said.left) {
      box.hidden = true;
    }
  });
  var send = function () {
    sw.ready.then(function (ready) { ready.active.postMessage({send: 1}); });
  };
  send();
  window.addEventListener("online", send);
  setInterval(send, 15000);
})();
