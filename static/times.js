/* Times the server writes in UTC (<time datetime data-nu>), shown in the phone's own time zone,
   in the page's language and digits ("arab" or "latn"). Without it, they read in UTC. */
"use strict";
(function () {
  Array.prototype.forEach.call(document.querySelectorAll("time[data-nu]"), function (t) {
    var at = new Date(t.getAttribute("datetime"));
    if (isNaN(at.getTime()) || !window.Intl) { return; }
    t.textContent = new Intl.DateTimeFormat(document.documentElement.lang + "-u-nu-" + t.dataset.nu,
      {dateStyle: "medium", timeStyle: "short"}).format(at);
  });
})();
