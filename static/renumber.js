/* Trex Scorekeeper: an entry form kept offline before the deals now waiting were saved is for
   the deal after them. static/sw.js says so on the outbox it fills (data-renumber: the deal
   after those it knows, and the page's digits) and adds this script to the entry forms it
   serves: when the number the form holds is lower, it is set in the form, its heading, the
   page's title and the Save button. */
"use strict";
(function () {
  var box = document.getElementById("outbox"), said = box && box.getAttribute("data-renumber");
  var to = said && JSON.parse(said);
  var field = document.querySelector("input[name=number]");
  var from = field && parseInt(field.value, 10);
  if (!to || !from || from >= to[0]) { return; }
  var digits = function (n) {
    return String(n).replace(/\d/g, function (d) { return to[1].charAt(Number(d)); });
  };
  var old = digits(from), now = digits(to[0]);
  var again = function (text) { return text.split(old).join(now); };
  Array.prototype.forEach.call(document.querySelectorAll("input[name=number]"), function (i) {
    i.value = String(to[0]);
  });
  var heading = document.querySelector("h1"), text = heading && heading.firstChild;
  if (text && text.nodeType === 3) { text.nodeValue = again(text.nodeValue); }
  document.title = again(document.title);
  Array.prototype.forEach.call(document.querySelectorAll("[data-save]"), function (button) {
    var was = button.getAttribute("data-save"), now = again(was);
    button.setAttribute("data-save", now);
    if (button.textContent === was) { button.textContent = now; }  // static/entry.js ran first
  });
})();
