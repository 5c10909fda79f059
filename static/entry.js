/* The entry screen, on a form that works without this: the last count and place fill
   themselves in; "who led" shows when needed; several contracts show one at a time; the bar
   shows the engine's scores as the table taps, Save off (and why) while the result cannot be. */
"use strict";
(function () {
  var all = function (sel, root) {
    return Array.prototype.slice.call((root || document).querySelectorAll(sel));
  };
  var picked = function (fs) {
    var input = fs && fs.querySelector(":checked");
    return input ? input.value : null;
  };
  var el = function (tag, cls, text) {
    var node = document.createElement(tag);
    node.className = cls || "";
    node.textContent = text || "";
    return node;
  };

  /* the one missing part of a group (4th count, last place), filled in and marked */
  var autoFill = function (group, compute) {
    var parts = all("fieldset.pick", group), auto = null;
    var mark = function () {
      all(".auto", group).forEach(function (l) { l.classList.remove("auto"); });
      var input = auto && auto.querySelector(":checked");
      if (input) { input.parentNode.classList.add("auto"); }
    };
    group.addEventListener("change", function (event) {
      if (event.target.closest("fieldset") === auto) { auto = null; mark(); }
      var values = parts.map(function (p) { return p === auto ? null : picked(p); });
      var i = values.indexOf(null);
      if (i < 0 || values.indexOf(null, i + 1) >= 0) { return; }
      var input = parts[i].querySelector('[value="' + compute(values) + '"]');
      if (input) { input.checked = true; auto = parts[i]; mark(); }
    });
  };
  all("[data-sum]").forEach(function (group) {
    autoFill(group, function (values) {
      return values.reduce(function (rest, v) { return rest - v; }, group.dataset.sum);
    });
  });
  all("[data-order]").forEach(function (group) {
    autoFill(group, function (values) {
      var left = "0123".split("").filter(function (s) { return values.indexOf(s) < 0; });
      return left.length === 1 ? left[0] : null;
    });
  });

  /* who led to that trick: only when the holder of a doubled card took it */
  all("[data-leader]").forEach(function (box) {
    var id = "f-" + box.dataset.leader;
    var taker = document.getElementById(id + "_taker");
    var holder = document.getElementById(id + "_doubled_by");
    var update = function () {
      var h = picked(holder);
      box.hidden = !(h && h === picked(taker));
    };
    taker.onchange = holder.onchange = update;
    update();
  });

  var form = document.querySelector("form[data-preview]");
  if (!form) { return; }

  /* several contracts: a tab each, one shown; one complete, the next open one shows */
  var parts = all("form > .group[data-tab]", form);
  if (parts.length > 1) {
    var complete = function (part) {
      return all(".count, .capture > .players, .leader:not([hidden])", part)
        .every(function (fs) { return picked(fs) !== null; });
    };
    var tabs = el("div", "steps"), done = parts.map(complete);
    tabs.setAttribute("role", "tablist");
    var open = function (i) {
      parts.forEach(function (part, j) {
        part.hidden = j !== i;
        tabs.children[j].setAttribute("aria-selected", j === i);
      });
    };
    parts.forEach(function (part, i) {
      var tab = tabs.appendChild(el("button", done[i] ? "done" : ""));
      tab.type = "button";
      tab.setAttribute("role", "tab");
      tab.setAttribute("aria-controls", part.id);
      tab.appendChild(el("span", "", part.dataset.tab));
      tab.onclick = function () { open(i); };
      part.setAttribute("role", "tabpanel");
      part.addEventListener("change", function () {
        var now = complete(part), next = now && !done[i];
        done[i] = now;
        tab.classList.toggle("done", now);
        for (var k = 1; next && k < parts.length; k++) {
          if (!done[(i + k) % parts.length]) { open((i + k) % parts.length); return; }
        }
      });
    });
    parts[0].before(tabs);
    var wrong = parts.findIndex(function (p) { return p.querySelector(".error"); });
    open(wrong >= 0 ? wrong : Math.max(done.indexOf(false), 0));
  }

  /* the engine's scores in the bar; the button saves at once */
  var box = document.getElementById("live-preview");
  var send = form.querySelector("[data-save]");
  if (!box || !send || !window.fetch) { return; }
  var words = JSON.parse(box.dataset.words), asked = 0, cleared = false;
  send.value = "save";
  send.textContent = send.dataset.save;
  send.setAttribute("aria-describedby", box.id);
  box.hidden = false;
  var table = function (rows) {
    var t = el("table"), head = t.appendChild(el("thead")).appendChild(el("tr"));
    var body = t.appendChild(el("tbody"));
    head.appendChild(el("th")).appendChild(el("span", "sr", words.player));
    rows.forEach(function (r) { head.appendChild(el("th")).appendChild(el("bdi", "", r.name)); });
    [["deal", words.this_deal], ["total", words.total]].forEach(function (line) {
      var tr = body.appendChild(el("tr"));
      tr.appendChild(el("th", "", line[1])).scope = "row";
      rows.forEach(function (r) {
        var v = r[line[0]];
        tr.appendChild(el("td")).appendChild(
          el("span", v < 0 ? "neg" : v > 0 ? "pos" : "", r[line[0] + "_text"]));
      });
    });
    return t;
  };
  var show = function (answer) {
    var shown = answer.ok ? [table(answer.rows)] : [el("p", "why", (answer.problems || [])[0])];
    if (answer.ok && answer.note) { shown.unshift(el("p", "why", answer.note)); }
    box.replaceChildren.apply(box, shown);
    if (window.fitNames) { window.fitNames(box); }
    send.disabled = !answer.ok && !answer.offline;
    if (!cleared) {  /* the bar says what is wrong now: the page's messages are of the past */
      cleared = true;
      all(".group .error, #problems .notes", form).forEach(function (n) { n.remove(); });
      var problems = document.getElementById("problems");
      if (problems && !problems.querySelector(".error")) { problems.remove(); }
    }
  };
  var ask = function () {
    var mine = ++asked;
    var free = function () { if (mine === asked) { send.disabled = false; } };
    fetch(form.dataset.preview, {method: "POST", body: new FormData(form),
                                 headers: {Accept: "application/json"}})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (answer) { if (!answer) { free(); } else if (mine === asked) { show(answer); } })
      .catch(free);
  };
  form.addEventListener("change", ask);
  ask();
})();
