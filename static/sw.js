/* Trex Scorekeeper's service worker, served as /sw.js (pages/offline.py puts VERSION and FILES
   before this). A phone that loses the network still shows the games it opened and their entry
   forms; a deal saved meanwhile waits in an outbox (IndexedDB) and is sent, in order, as soon as
   the server answers. The server stays the one judge: it scores and checks every deal sent, its
   one-time tokens make a resend harmless, and whatever it refuses is shown as it answered.
   What it knows of a page is the page's data, JSON the templates emit for it
   (pages/offline.py, offline_data), never read from the markup around it. */
"use strict";
var CACHE = "trex-" + VERSION, REFUSED = "trex-refused";
/* Where a group's pages are: at the root on a laptop and on a hosted box of one group, under
   /g/<id>/ on a box of many groups (web/groups.py). The worker, at /sw.js with the scope "/",
   serves both: each address is read as its group's prefix (its "space", "" at the root) and
   the path after it, and every deal it holds or remembers carries its space, so that a phone
   in two groups keeps each one's deals to that group. */
var SPACE = /^((?:\/g\/[^/]+)?)(\/.*)$/;
var where = function (url) {
  var found = SPACE.exec(new URL(url, location.href).pathname);
  return {space: found[1], path: found[2]};
};
var spaceOf = function (deal) { return deal.space || ""; };  /* "": held before spaces were */
var PAGE = /^\/games\/\d+(\/deals\/new|\/thrown-in|\/deals\/\d+(\/edit)?)?$/;
var SAVE = /^\/games\/(\d+)\/(deals\/new|thrown-in|deals\/\d+\/edit)$/;
/* A page's data: the JSON in the attribute that opens with DATA (the templates write no "'",
   "<", ">" or "&" in it, so it is the JSON as it is and ends at the first "'"), or null. */
var DATA = "<div id=\"offline-data\" hidden data-page='", END = "'";
var data = function (html) {
  var at = html.indexOf(DATA), end = at < 0 ? -1 : html.indexOf(END, at + DATA.length);
  return end < 0 ? null : JSON.parse(html.slice(at + DATA.length, end));
};
/* An entry form's data is its own JSON, at the form's address with ?offline=data
   (pages/offline.py): kept beside the form, read from what is kept. */
var companion = function (url) {
  var at = new URL(url, location.href);
  at.searchParams.set("offline", "data");
  return at.href;
};
var keepData = function (cache, url) {
  return fetch(companion(url), {headers: {Purpose: "prefetch"}}).then(function (r) {
    return r.ok ? whole(cache, companion(url), r) : null;
  }).catch(function () {});
};
var formData = function (url) {
  return caches.match(companion(url)).then(function (r) { return r ? r.json() : null; })
    .catch(function () { return null; });
};

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

/* -- the outbox: "deals" waits to be sent, its keys in the order the deals were saved;
   "sent" remembers what the server took from this phone (its token used, its deal number
   taken), which a page or a form kept from before may not show yet -- */
var base = null;
var open = function () {
  base = base || new Promise(function (ok, no) {
    var asked = indexedDB.open("trex-outbox", 2);
    asked.onupgradeneeded = function () {
      ["deals", "sent"].forEach(function (name) {
        if (!asked.result.objectStoreNames.contains(name)) {
          asked.result.createObjectStore(name, {keyPath: "id", autoIncrement: true});
        }
      });
    };
    asked.onsuccess = function () { ok(asked.result); };
    asked.onerror = function () { base = null; no(asked.error); };
  });
  return base;
};
var outbox = function (mode, work, name) {
  return open().then(function (db) {
    return new Promise(function (ok, no) {
      var t = db.transaction(name || "deals", mode), asked = work(t.objectStore(name || "deals"));
      t.oncomplete = function () { ok(asked && asked.result); };
      t.onerror = t.onabort = function () { no(t.error); };
    });
  });
};
var all = function () { return outbox("readonly", function (s) { return s.getAll(); }); };
var drop = function (id) { return outbox("readwrite", function (s) { return s.delete(id); }); };
var sent = function () { return outbox("readonly", function (s) { return s.getAll(); }, "sent"); };
/* What an entry is, from its fields: its game, deal number, token, contracts ("" thrown in)
   and whether it is a new deal or a correction. */
var entry = function (game, url, fields) {  /* the space: that of *url* */
  var value = function (name) {
    var found = fields.filter(function (f) { return f[0] === name; })[0];
    return found ? String(found[1]) : "";
  };
  return {space: where(url).space, game: game, number: Number(value("number")),
          token: value("token"), contracts: value("contracts"),
          kind: /\/edit$/.test(url) ? "edit" : "new"};
};
var about = function (deal) {
  return deal.kind ? {space: spaceOf(deal), game: deal.game, number: deal.number,
                      token: deal.token, contracts: deal.contracts, kind: deal.kind}
    : entry(deal.game, deal.action, deal.fields);
};
/* The server took *deal*: remembered (the last 200), so that a form or a page kept from
   before it is read as coming after it. */
var remember = function (deal) {
  return outbox("readwrite", function (s) {
    s.add(about(deal));
    var keys = s.getAllKeys();
    keys.onsuccess = function () { keys.result.slice(0, -200).forEach(function (k) { s.delete(k); }); };
  }, "sent");
};
/* The server's own game page says the number of the next deal: a deal remembered with a
   number from it on was undone since, and no longer comes before anything. */
var forget = function (space, game, html) {
  var page = data(html), next = page && page.next;
  if (!next) { return Promise.resolve(); }
  return outbox("readwrite", function (s) {
    var at = s.openCursor();
    at.onsuccess = function () {
      var c = at.result;
      if (!c) { return; }
      if (spaceOf(c.value) === space && c.value.game === game && c.value.kind === "new" &&
          c.value.number >= next) {
        c.delete();
      }
      c.continue();
    };
  }, "sent");
};
/* The deals of *game* (of the group at *space*) this phone knows and the server may not have
   shown yet: those waiting, and those it took. */
var ours = function (space, game) {
  return function (d) { return spaceOf(d) === space && d.game === game; };
};
var known = function (space, game, lists) {
  return [].concat.apply([], lists).map(about).filter(ours(space, game));
};
var token = function () {
  var bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode.apply(null, bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
};

/* The result as tapped, in the page's words: read from the data of the entry form this phone
   kept (the one the deal was sent from) and the fields sent. Without it, the deal still
   waits. A game page's data, from the pages of *game* kept here (kept). */
var kept = function (space, game, wanted) {  /* the data of the first page of *game* kept here that is *wanted* */
  return caches.open(CACHE).then(function (cache) {
    return cache.keys().then(function (keys) {
      return keys.filter(function (k) {
        return (new URL(k.url).pathname + "/").indexOf(space + "/games/" + game + "/") === 0;
      }).reduce(function (found, k) {
        return found.then(function (page) {
          return page || cache.match(k).then(function (r) { return r.text(); })
            .then(function (t) { var d = data(t); return d && wanted(d) ? d : null; });
        });
      }, Promise.resolve(null));
    });
  });
};
var worded = function (page) { return !!page.words; };
var described = function (form, fields) {  /* *form*: the address of the form sent */
  return formData(form).then(function (page) {
    var lines = [];
    fields.forEach(function (f) {  /* a field sent empty (no answer, a hidden one) says nothing */
      var field = page && f[1] !== "" ? (page.fields || {})[f[0]] : null;  /* [legend, chips or null] */
      if (!field) { return; }
      var label = field[1] === null ? f[1] : ((page.chips || [])[field[1]] || {})[f[1]];
      var legend = (page.legends || [])[field[0]];
      if (label && legend) { lines.push([legend, label]); }
    });
    return {fields: fields, title: page ? page.title : "", lines: lines};
  });
};

/* A deal form sent while the server cannot be reached: kept with its fields (one-time token
   included: if the form did reach the server and only its answer was lost, sent again it is
   answered "already saved"). A form for the next deal opened from this phone's cache still
   reads the number it had when it was cached: it becomes the deal after the last one waiting
   or taken. A form whose token this phone knows is used (a deal waiting, or one the server
   took, was entered from the same kept form) gets a token of its own, made here: the server
   takes an unused token of the right form once. Then the game page, as this phone last saw
   it. */
var keep = function (request, space, game) {
  return request.formData().then(function (form) {
    var fields = [];
    form.forEach(function (value, key) { fields.push([key, value]); });
    return Promise.all([all(), sent(), described(request.referrer, fields)]);
  }).then(function (found) {
    var waiting = found[0], taken = found[1], entered = found[2], fields = entered.fields;
    var mine = known(space, game, [waiting, taken]);
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
    if (waiting.concat(taken).some(function (d) { return d.token === value("token"); })) {
      field("token", token());
    }
    var deal = entry(game, request.url, fields);
    deal.action = request.url;
    deal.fields = fields;
    deal.title = entered.title;
    deal.lines = entered.lines;
    return outbox("readwrite", function (s) { return s.add(deal); });
  }).then(function () {
    return Response.redirect(space + "/games/" + game, 303);
  });
};

/* Send what waits, oldest first, one at a time. A redirect is the server's "saved" (or
   "already saved": the token was used). Any other answer (the engine refused it, another phone
   changed the game meanwhile) is the page the phone that asked is sent to, once, at the form's
   address: the server's own page, the entry kept with its message, or the "changed meanwhile"
   page; then sending stops. Each group's deals go in their own order: a deal its group does
   not take now (a server error, or refused while the phone that asked shows another group)
   waits, and so does every later deal of that group, while the other groups' go on. The
   network not reached stops it all until the next time (said to the pages: "unreached"). */
var sending = Promise.resolve();
var send = function (client) {
  var count = {}, held = {}, unreached = false;
  var asking = client && client.url ? where(client.url).space : null;
  var next = function () {
    return all().then(function (waiting) {
      var deal = waiting.filter(function (d) { return !held[spaceOf(d)]; })[0];
      if (!deal) { return null; }
      var space = spaceOf(deal), body = new URLSearchParams();
      deal.fields.forEach(function (f) { body.append(f[0], f[1]); });
      return fetch(deal.action, {method: "POST", body: body, redirect: "manual",
                                 credentials: "same-origin"})
        .then(function (answer) {
          if (answer.type === "opaqueredirect") {
            count[space] = (count[space] || 0) + 1;
            return remember(deal).then(function () { return drop(deal.id); }).then(next);
          }
          if (answer.status >= 500 || !client || !client.navigate || asking !== space) {
            held[space] = true;  // later
            return next();
          }
          return caches.open(REFUSED).then(function (c) { return c.put(deal.action, answer); })
            .then(function () { return client.navigate(deal.action); })
            .then(function () { return drop(deal.id); });
        }, function () { unreached = true; return null; });  // no network: try again later
    });
  };
  sending = sending.then(next).catch(function () {}).then(all).then(function (waiting) {
    return self.clients.matchAll().then(function (clients) {
      clients.forEach(function (c) {  /* each page hears of its own group's deals */
        var space = where(c.url).space;
        c.postMessage({sent: count[space] || 0, unreached: unreached,
                       left: waiting.filter(function (d) { return spaceOf(d) === space; }).length});
      });
    });
  });
  return sending;
};

/* The entry bar's preview without network: the server cannot score, so the bar says that
   Save keeps the deal here, in the words of the game page kept (Save stays on). */
var PREVIEW = /^\/games\/(\d+)\/deals\/preview\.json$/;
var away = function (space, game) {
  return kept(space, game, worded).then(function (page) {
    var words = page ? page.words : {};
    return new Response(JSON.stringify({ok: false, offline: true,
                                        problems: [words.offline || "Offline"]}),
                        {headers: {"Content-Type": "application/json"}});
  });
};

self.addEventListener("message", function (event) {
  if ((event.data || {}).send) { event.waitUntil(send(event.source)); }
});

/* A game's page or entry form, with the deals of that game waiting shown in its #outbox, in
   the words the page gives: each one's result as tapped, its points not yet checked. */
var esc = function (text) {
  return String(text).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; });
};
var NEW = /\/(deals\/new|thrown-in)$/;
var RENUMBER = '<script src="' + FILES.filter(function (f) {
  return f.slice(-12) === "/renumber.js";
})[0] + '" defer></script>';
/* An entry form whose data was not kept (the network went between the form and its data) is
   still shown with the deals waiting and numbered after them: its outbox is the one the game
   page's data names for its forms. */
var shown = function (answer, space, game, url) {
  var path = where(url).path;
  return Promise.all([all(), sent()]).then(function (found) {
    var waiting = found[0].filter(ours(space, game));
    var mine = known(space, game, found);
    if (!mine.length) { return answer; }
    return Promise.all([answer.text(), kept(space, game, worded), formData(url)])
      .then(function (pages) {
      var html = pages[0], home = pages[1] || {};
      var page = data(html) || pages[2] || (home.form_box ? {box: home.form_box} : null);
      var at = page ? html.indexOf(page.box) : -1;
      var words = (page && page.words) || home.words;
      if (at < 0 || !words) { return html; }
      var digits = function (n) {
        return String(n).replace(/\d/g, function (d) { return words.digits[d]; });
      };
      /* the next deal's form, kept before those waiting were saved, is for the deal after
         them: static/renumber.js, added to every entry form served with deals known, reads
         the number the form itself holds (its data, kept apart, may be from another fetch) and
         numbers it so when it is lower */
      var next = 1 + Math.max.apply(null, mine.map(function (d) { return d.number; }));
      var to = NEW.test(path) ? [next, words.digits] : null;
      var cards = waiting.map(function (deal) {
        var number = digits(deal.number);
        return '<section class="card waiting"><h2>' + esc(words.waiting.replace("{n}", number)) +
          '</h2><p class="muted">' + esc(deal.title) + '</p><ul class="notes">' +
          deal.lines.filter(function (line) { return line[0] && line[1]; }).map(function (line) {
            return "<li><bdi>" + esc(line[0]) + "</bdi>" + (/[?؟]$/.test(line[0]) ? " " : ": ") +
              "<bdi>" + esc(line[1]) + "</bdi></li>";
          }).join("") + '</ul><p class="muted">' + esc(words.unchecked) + "</p></section>";
      });
      /* and for the game page (static/waiting.js), every deal it may not show yet */
      var held = mine.map(function (d) { return {n: d.number, c: d.contracts, k: d.kind}; });
      var box = '<div id="outbox"' + (page.reload ? " data-reload" : "") +
        " data-known='" + esc(JSON.stringify(held)) + "'" +
        (to ? " data-renumber='" + esc(JSON.stringify(to)) + "'" : "") +
        (cards.length ? "" : " hidden") + ">" + cards.join("") + "</div>" + (to ? RENUMBER : "");
      return html.slice(0, at) + box + html.slice(at + page.box.length);
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

/* *answer* kept under *key* once its whole body has come: a network gone half-way through
   leaves the copy kept before as it was. */
var whole = function (cache, key, answer) {
  return answer.arrayBuffer().then(function (body) {
    return cache.put(key, new Response(body, {status: answer.status,
      statusText: answer.statusText, headers: answer.headers}));
  });
};

/* The entry forms the game page links to, kept too, so that a deal can be entered offline.
   One after the other: the first may start the session's form key (a cookie), which the
   others must then carry, or their forms would not be accepted. */
var forms = function (html) {
  var page = data(html), found = (page && page.forms) || [];
  return caches.open(CACHE).then(function (cache) {
    return found.reduce(function (done, url) {
      return done.then(function () {
        return fetch(url, {headers: {Purpose: "prefetch"}});
      }).then(function (r) { return r.ok ? whole(cache, url, r).then(function () {
        return keepData(cache, url);
      }) : null; }).catch(function () {});
    }, Promise.resolve());
  });
};

/* Pages: the network first, so an online phone always sees the newest; the kept copy when the
   network fails. */
var page = function (event, at) {  /* *at*: where the page is (its space and path) */
  var request = event.request, game = /^\/games\/\d+$/.test(at.path);
  var number = Number(at.path.split("/")[2]);
  return fetch(request).then(function (answer) {
    var html = (answer.headers.get("Content-Type") || "").indexOf("text/html") === 0;
    if (answer.ok && answer.type === "basic" && html) {
      var copy = answer.clone(), text = game ? answer.clone().text() : null;
      event.waitUntil(caches.open(CACHE).then(function (cache) {
        return whole(cache, request, copy).then(function () {
          return game ? null : keepData(cache, request.url);
        });
      }).then(function () { return text && text.then(forms); }));
      if (text) {  // what the server holds now, before the page is shown
        return text.then(function (t) { return forget(at.space, number, t); })
          .catch(function () {}).then(function () { return answer; });
      }
    }
    return answer;
  }, function () {
    return caches.match(request).then(function (kept) { return kept || Response.error(); });
  }).then(function (answer) {
    return answer.ok ? shown(answer, at.space, number, request.url) : answer;
  });
};

self.addEventListener("fetch", function (event) {
  var request = event.request, url = new URL(request.url);
  if (url.origin !== location.origin) { return; }
  var at = where(url.href), save = SAVE.exec(at.path), preview = PREVIEW.exec(at.path);
  if (request.method === "POST" && preview) {
    event.respondWith(fetch(request).catch(function () {
      return away(at.space, Number(preview[1]));
    }));
  } else if (request.method === "POST" && save && request.mode === "navigate") {
    var copy = request.clone(), game = Number(save[1]);
    event.respondWith(fetch(request).then(function (answer) {
      if (answer.type !== "opaqueredirect") { return answer; }
      return copy.formData().then(function (form) {  // taken: remembered before what follows
        var fields = [];
        form.forEach(function (value, key) { fields.push([key, value]); });
        return remember(entry(game, request.url, fields));
      }).catch(function () {}).then(function () { return answer; });
    }, function () {
      return keep(copy, at.space, game);
    }));
  } else if (request.method !== "GET") {
    return;
  } else if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(caches.match(request).then(function (kept) {
      return kept || fetch(request);
    }));
  } else if (request.mode === "navigate" && PAGE.test(at.path)) {
    event.respondWith(caches.open(REFUSED).then(function (refused) {
      return refused.match(request).then(function (answer) {
        return answer ? refused.delete(request).then(function () { return answer; })
          : page(event, at);
      });
    }));
  }
});
