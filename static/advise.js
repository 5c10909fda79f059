/* Advise: count the cards picked, and say the deals are being played once the form is sent. */
"use strict";
(function () {
  var form = document.getElementById("picker");
  var out = document.getElementById("picked");
  if (!form || !out) { return; }
  var digits = form.getAttribute("data-digits") || "0123456789";
  var update = function () {
    var n = form.querySelectorAll("input[name=card]:checked").length;
    out.textContent = String(n).replace(/[0-9]/g, function (d) { return digits.charAt(+d); });
    form.classList.toggle("full", n === 13);
    form.classList.toggle("over", n > 13);
  };
  form.addEventListener("change", update);
  window.addEventListener("pageshow", update);
  update();
  form.addEventListener("submit", function () {
    var button = form.querySelector("button[data-busy]");
    if (button) {
      button.textContent = button.getAttribute("data-busy");
      button.setAttribute("aria-busy", "true");
    }
  });
})();
