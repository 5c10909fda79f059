/* Trex Scorekeeper's service worker, served as /sw.js (pages/offline.py puts VERSION and FILES
   before this). A phone that loses the network still shows the games it opened and their entry
   forms; a deal saved meanwhile waits in an outbox (IndexedDB) and is sent, in order, as soon as
   the server answers. The server stays the one judge: it scores and checks every deal sent, its
   one-time tokens make a resend harmless, and whatever it refuses is shown as it answered. */
"use strict";
var CACHE = "trex-" + VERSION, REFUSED = "trex-refused";
var PAGE = /^\/games\/\d+(\/deals\/new|\/thrown-in|\/deals\/\d+(\/edit)?)?$/;
var SAVE = /^\/games\/(\d+)\/(deals\/new|thrown-in|deals\/\d+\/edit)$/;
var NEXT = /href="(\/games\/\d+\/(?:deals\/new|thrown-in)[^"]*)"/g;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (c) { return c.addAll(FILES); })
    .then(function () { return self.skipWaiting(); }));
});
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n !== CACHE && n !== REFUSED; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

/* -- the outbox: one object store, its keys in the order the deals were saved -- */
var base = null;
var open = function () {
  base = base || new Promise(function (ok, no) {
    var asked = indexedDB.open("trex-outbox", 1);
    asked.onupgradeneeded = function () {
      asked.result.createObjectStore("deals", {keyPath: "id", autoIncrement: true});
    };
    asked.onsuccess = function () { ok(asked.result); };
    asked.onerror = function () { base = null; no(asked.error); };
  });
  return base;
};
var outbox = function (mode, work) {
  return open().then(function (db) {
    return new Promise(function (ok, no) {
      var t = db.transaction("deals", mode), asked = work(t.objectStore("deals"));
      t.oncomplete = function () { ok(asked && asked.result); };
      t.onerror = t.onabort = function () { no(t.error); };
    });
  });
};
var all = function () { return outbox("readonly", function (s) { return s.getAll(); }); };
var drop = function (id) { return outbox("readwrite", function (s) { return s.delete(id); }); };
var token = function () {
  var bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode.apply(null, bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
};

/* The result as tapped, in the page's words: read from the entry form this phone kept (the
   one that carries the token sent) and the fields sent. Without it, the deal still waits. */
var text = function (html) {
  return html.replace(/<[^>]*>/g, "").replace(/&(#?\w+);/g, function (all, e) {
    var named = {amp: "&", lt: "<", gt: ">", quot: '"'}[e];
    return named || (e[0] === "#" ? String.fromCharCode(Number(e.slice(1))) : all);
  }).trim();
};
var literal = function (t) { return t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); };
var kept = function (game, has) {  /* the first page of *game* kept here whose HTML has *has* */
  return caches.open(CACHE).then(function (cache) {
    return cache.keys().then(function (keys) {
      return keys.filter(function (k) {
        var path = new URL(k.url).pathname + "/";
        return path.indexOf("/games/" + game + "/") === 0;
      }).reduce(function (found, k) {
        return found.then(function (html) {
          return html || cache.match(k).then(function (r) { return r.text(); })
            .then(function (t) { return t.indexOf(has) >= 0 ? t : null; });
        });
      }, Promise.resolve(null));
    });
  });
};
var described = function (game, sent, fields) {
  return kept(game, 'value="' + sent + '"').then(function (html) {
    var title = html && /data-title="([^"]*)"/.exec(html), lines = [];
    fields.forEach(function (f) {
      var set = html && f[1] && new RegExp('<fieldset class="pick[^"]*" id="f-' + literal(f[0]) +
                                           '">([\\s\\S]*?)</fieldset>').exec(html);
      var legend = set && /<legend>([\s\S]*?)<\/legend>/.exec(set[1]);
      var label = set && new RegExp("<label><input type=radio name=" + literal(f[0]) +
        ' value=(?:"' + literal(f[1]) + '"|' + literal(f[1]) + "(?=[ >]))[^>]*>([\\s\\S]*?)</label>"
      ).exec(set[1]);
      if (legend && label) {
        var sr = /class="sr">([\s\S]*?)<\/span>/.exec(legend[1]);
        lines.push([text(sr ? sr[1] : legend[1]), text(label[1])]);
      }
    });
    return {fields: fields, title: title ? text(title[1]) : "", lines: lines};
  });
};

/* A deal form sent while the server cannot be reached: kept with its fields (one-time token
   included). A form for the next deal opened from this phone's cache still reads the number
   it had when it was cached: it becomes the deal after the last one waiting, with a token of
   its own. Then the game page, as this phone last saw it. */
var keep = function (request, game) {
  return request.formData().then(function (form) {
    var fields = [];
    form.forEach(function (value, key) { fields.push([key, value]); });
    return Promise.all([all(), described(game, form.get("token"), fields)]);
  }).then(function (found) {
    var waiting = found[0], entered = found[1], fields = entered.fields;
    var mine = waiting.filter(function (d) { return d.game === game; });
    var value = function (name) {
      return fields.filter(function (f) { return f[0] === name; })[0][1];
    };
    var field = function (name, value) {
      fields.forEach(function (f) { if (f[0] === name) { f[1] = String(value); } });
    };
    if (!/\/edit$/.test(request.url)) {
      var last = Math.max.apply(null, [0].concat(mine.map(function (d) { return d.number; })));
      if (Number(value("number")) <= last) { field("number", last + 1); }
    }
    if (waiting.some(function (d) { return d.token === value("token"); })) {
      field("token", token());
    }
    var deal = {game: game, action: request.url, fields: fields, number: Number(value("number")),
                token: value("token"), title: entered.title, lines: entered.lines};
    return outbox("readwrite", function (s) { return s.add(deal); });
  }).then(function () {
    return Response.redirect("/games/" + game, 303);
  });
};

/* Send what waits, oldest first, one at a time; stop at the first the server does not take.
   A redirect is the server's "saved" (or "already saved": the token was used). Any other
   answer (the engine refused it, another phone changed the game meanwhile) is the page the
   phone that asked is sent to, once, at the form's address: the server's own page, the entry
   kept with its message, or the "changed meanwhile" page. A server error waits for later. */
var sending = Promise.resolve();
var send = function (client) {
  var sent = 0;
  var next = function () {
    return all().then(function (waiting) {
      var deal = waiting[0];
      if (!deal) { return null; }
      var body = new URLSearchParams();
      deal.fields.forEach(function (f) { body.append(f[0], f[1]); });
      return fetch(deal.action, {method: "POST", body: body, redirect: "manual",
                                 credentials: "same-origin"})
        .then(function (answer) {
          if (answer.type === "opaqueredirect") {
            sent++;
            return drop(deal.id).then(next);
          }
          if (answer.status >= 500 || !client || !client.navigate) { return null; }  // later
          return caches.open(REFUSED).then(function (c) { return c.put(deal.action, answer); })
            .then(function () { return client.navigate(deal.action); })
            .then(function () { return drop(deal.id); });
        }, function () { return null; });  // still no network: try again later
    });
  };
  sending = sending.then(next).catch(function () {}).then(all).then(function (waiting) {
    return self.clients.matchAll().then(function (clients) {
      clients.forEach(function (c) { c.postMessage({sent: sent, left: waiting.length}); });
    });
  });
  return sending;
};

self.addEventListener("message", function (event) {
  if ((event.data || {}).send) { event.waitUntil(send(event.source)); }
});

/* A game's page or entry form, with the deals of that game waiting shown in its #outbox, in
   the words the page gives: each one's result as tapped, its points not yet checked. */
var esc = function (text) {
  return String(text).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; });
};
var BOX = /<div id="outbox"(?: data-words='([^']*)')?([^>]*?) hidden><\/div>/;
var NEW = /\/(deals\/new|thrown-in)$/;
var shown = function (answer, game, path) {
  return all().then(function (waiting) {
    waiting = waiting.filter(function (d) { return d.game === game; });
    if (!waiting.length) { return answer; }
    return Promise.all([answer.text(), kept(game, "data-words=")]).then(function (pages) {
      var html = pages[0], box = BOX.exec(html), from = BOX.exec(pages[1] || "");
      if (!box || !(box[1] || from)) { return html; }
      var words = JSON.parse(box[1] || from[1]);
      var digits = function (n) {
        return String(n).replace(/\d/g, function (d) { return words.digits[d]; });
      };
      /* the next deal's form, kept before those waiting were saved: the deal after them */
      var had = /name="number" type="hidden" value="(\d+)"/.exec(html);
      var next = 1 + Math.max.apply(null, waiting.map(function (d) { return d.number; }));
      if (had && NEW.test(path) && Number(had[1]) < next) {
        html = html.replace(had[0], had[0].replace(had[1], next)).replace(
          /(<h1>|<title>|data-save=")([^<"]*)/g, function (all, start, words) {
            return start + words.split(digits(had[1])).join(digits(next));
          });
      }
      var cards = waiting.map(function (deal) {
        var number = digits(deal.number);
        return '<section class="card waiting"><h2>' + esc(words.waiting.replace("{n}", number)) +
          '</h2><p class="muted">' + esc(deal.title) + '</p><ul class="notes">' +
          deal.lines.map(function (line) {
            return "<li><bdi>" + esc(line[0]) + "</bdi>" + (/[?؟]$/.test(line[0]) ? " " : ": ") +
              "<bdi>" + esc(line[1]) + "</bdi></li>";
          }).join("") + '</ul><p class="muted">' + esc(words.unchecked) + "</p></section>";
      });
      return html.replace(BOX, function (all, said, rest) {
        return '<div id="outbox"' + (said ? " data-words='" + said + "'" : "") + rest + ">" +
          cards.join("") + "</div>";
      });
    }).then(function (html) {
      if (typeof html !== "string") { return html; }
      var headers = new Headers(answer.headers);
      headers.delete("Content-Length");
      headers.delete("Content-Encoding");
      return new Response(html, {status: answer.status, statusText: answer.statusText,
                                 headers: headers});
    });
  });
};

/* The entry forms the game page links to, kept too, so that a deal can be entered offline.
   One after the other: the first may start the session's form key (a cookie), which the
   others must then carry, or their forms would not be accepted. */
var forms = function (html) {
  var found = [], hit;
  NEXT.lastIndex = 0;
  while ((hit = NEXT.exec(html)) !== null) { found.push(hit[1].replace(/&amp;/g, "&")); }
  return caches.open(CACHE).then(function (cache) {
    return found.reduce(function (done, url) {
      return done.then(function () {
        return fetch(url, {headers: {Purpose: "prefetch"}});
      }).then(function (r) { return r.ok ? cache.put(url, r) : null; })
        .catch(function () {});
    }, Promise.resolve());
  });
};

/* Pages: the network first, so an online phone always sees the newest; the kept copy when the
   network fails. */
var page = function (event, path) {
  var request = event.request;
  return fetch(request).then(function (answer) {
    var html = (answer.headers.get("Content-Type") || "").indexOf("text/html") === 0;
    if (answer.ok && answer.type === "basic" && html) {
      var copy = answer.clone();
      event.waitUntil(caches.open(CACHE).then(function (cache) {
        return cache.put(request, copy.clone());
      }).then(function () {
        return /^\/games\/\d+$/.test(path) ? copy.text().then(forms) : null;
      }));
    }
    return answer;
  }, function () {
    return caches.match(request).then(function (kept) { return kept || Response.error(); });
  }).then(function (answer) {
    return answer.ok ? shown(answer, Number(path.split("/")[2]), path) : answer;
  });
};

self.addEventListener("fetch", function (event) {
  var request = event.request, url = new URL(request.url);
  if (url.origin !== location.origin) { return; }
  var save = SAVE.exec(url.pathname);
  if (request.method === "POST" && save && request.mode === "navigate") {
    var copy = request.clone();
    event.respondWith(fetch(request).catch(function () {
      return keep(copy, Number(save[1]));
    }));
  } else if (request.method !== "GET") {
    return;
  } else if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(caches.match(request).then(function (kept) {
      return kept || fetch(request);
    }));
  } else if (request.mode === "navigate" && PAGE.test(url.pathname)) {
    event.respondWith(caches.open(REFUSED).then(function (refused) {
      return refused.match(request).then(function (answer) {
        return answer ? refused.delete(request).then(function () { return answer; })
          : page(event, url.pathname);
      });
    }));
  }
});
