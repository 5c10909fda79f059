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

  /* New game: names into the diagram and the 7♥ buttons; presets fill the settings. */
  var form = document.getElementById("new-game");
  if (form) {
    each("input[data-seat]", form, function (input) {
      var seat = input.getAttribute("data-seat");
      input.addEventListener("input", function () {
        var name = input.value.trim() || "Player " + (Number(seat) + 1);
        each('[data-name="' + seat + '"]', form, function (el) { el.textContent = name; });
        each('#f-first_king input[value="' + seat + '"] + span bdi', form,
             function (el) { el.textContent = name; });
      });
    });
    var applying = false;
    each("#presets input", form, function (radio) {
      radio.addEventListener("change", function () {
        var rules = radio.getAttribute("data-rules");
        if (!rules) { return; }
        applying = true;
        var values = JSON.parse(rules);
        Object.keys(values).forEach(function (key) {
          var field = form.elements[key];
          if (!field || key === "preset") { return; }
          if (field.type === "checkbox") {
            field.checked = !!values[key];
            field.dispatchEvent(new Event("change", {bubbles: true}));
          } else { field.value = String(values[key]); }
        });
        applying = false;
      });
    });
    each("[data-show-if]", form, function (box) {
      var box2 = form.elements[box.getAttribute("data-show-if")];
      var update = function () { box.hidden = !box2.checked; };
      box2.addEventListener("change", update);
      update();
    });
    var settings = document.getElementById("settings");
    if (settings) {
      settings.addEventListener("change", function () {
        if (applying) { return; }
        var custom = form.querySelector('#presets input[value="custom"]');
        if (custom) { custom.checked = true; }
      });
    }
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
