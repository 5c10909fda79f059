/* Trex Scorekeeper: an entry form kept offline before the deals now waiting were saved is for
   the deal after them. static/sw.js says so on the outbox it fills (data-renumber: the number,
   and how the old and the new one are written in the page's digits) and adds this script to
   that page alone: the number is set in the form, its heading, the page's title and the Save
   button. */
"use strict";
(function () {
  var box = document.getElementById("outbox"), said = box && box.getAttribute("data-renumber");
  var to = said && JSON.parse(said);
  if (!to) { return; }
  var again = function (text) { return text.split(to[1]).join(to[2]); };
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
