/* Trex Scorekeeper, the new-game page: names into the seating diagram, the 7♥ buttons and the
   blank sheet's link; presets fill the settings. The form works without it. */
"use strict";
(function () {
  var each = function (sel, root, fn) {
    Array.prototype.forEach.call((root || document).querySelectorAll(sel), fn);
  };
  var form = document.getElementById("new-game");
  if (form) {
    each("input[data-seat]", form, function (input) {
      var seat = input.getAttribute("data-seat");
      input.addEventListener("input", function () {
        /* An empty seat shows "Player 1".."Player 4" as the page wrote it, in its language. */
        var shown = form.querySelector('[data-name="' + seat + '"]');
        var name = input.value.trim() || (shown ? shown.getAttribute("data-default") : "");
        each('[data-name="' + seat + '"]', form, function (el) { el.textContent = name; });
        each('#f-first_king input[value="' + seat + '"] + bdi', form,
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
      var update = function () {
        box.hidden = !box2.checked;
        /* A setting shown only with another one is off while that one is. */
        if (box.hidden) { each("input[type=checkbox]", box, function (c) { c.checked = false; }); }
      };
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

  /* The chances of winning by the ratings, once the four names are players the group knows. */
  var odds = document.getElementById("chances");
  if (odds && form && window.fetch) {
    var asked = 0, timer = null;
    var ask = function () {
      var names = Array.prototype.map.call(form.querySelectorAll("input[data-seat]"),
                                           function (i) { return i.value.trim(); });
      var preset = form.querySelector("#presets input:checked");
      var pair = preset && (preset.value === "partnership" || (preset.value === "custom" &&
                 form.elements.partnership && form.elements.partnership.checked));
      var mine = ++asked;
      if (!names.every(function (n) { return n; })) { odds.hidden = true; return; }
      fetch(odds.getAttribute("data-src") + "?partnership=" + (pair ? 1 : 0) + names.map(
        function (n) { return "&names=" + encodeURIComponent(n); }).join(""))
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (got) {
          if (mine !== asked) { return; }
          var shown = got && got.chances;
          odds.hidden = !shown;
          each("[data-chance]", odds, function (cell) {
            cell.textContent = shown ? shown[cell.getAttribute("data-chance")] : "";
          });
        })["catch"](function () { odds.hidden = true; });
    };
    form.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(ask, 300); });
    form.addEventListener("change", function () { clearTimeout(timer); timer = setTimeout(ask, 300); });
  }

  /* A blank scoresheet with the names typed so far. */
  var blank = document.getElementById("blank-sheet");
  if (blank && form) {
    var seats = form.querySelectorAll("input[data-seat]");
    form.addEventListener("input", function () {
      var names = Array.prototype.map.call(seats, function (i) { return i.value.trim(); });
      var all = names.every(function (n) { return n; });
      blank.href = blank.getAttribute("data-base") + (all ? "?" + names.map(function (n) {
        return "names=" + encodeURIComponent(n); }).join("&") : "");
    });
  }
})();
