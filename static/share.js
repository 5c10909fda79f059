/* Trex Scorekeeper: Share the result. With the Web Share API the button shares the text and,
   when the phone can share files, the scoresheet's image; without it the button's link opens
   the text to copy and the image to download. The copy button copies the text: a result's, or
   the group's join link (where there is no Web Share, as on a desktop browser). The click is
   caught on the document: the game page's scoreboard (static/live.js) may replace the button. */
"use strict";
(function () {
  var shown = document.getElementById("share-result");
  if (navigator.share) {
    if (shown) { shown.hidden = false; }
    document.addEventListener("click", function (event) {
      var button = event.target.closest && event.target.closest("#share-result");
      if (!button) { return; }
      event.preventDefault();
      var text = button.getAttribute("data-share"), image = button.getAttribute("data-image");
      var send = function (data) {
        return navigator.share(data).catch(function () {});
      };
      if (!image || !navigator.canShare || !window.File) { send({text: text}); return; }
      fetch(image).then(function (r) { return r.ok ? r.blob() : null; }).then(function (blob) {
        var file = blob && new File([blob], image.split("/").pop() || "trex.png",
                                    {type: "image/png"});
        send(file && navigator.canShare({files: [file]}) ? {text: text, files: [file]}
                                                          : {text: text});
      }, function () { send({text: text}); });
    });
  }
  var copy = document.getElementById("copy-result"), area = document.getElementById("share-text");
  if (copy && area && navigator.clipboard) {
    copy.hidden = false;
    copy.addEventListener("click", function () {
      var text = area.value === undefined ? area.textContent : area.value;
      navigator.clipboard.writeText(text).then(function () {
        copy.textContent = copy.getAttribute("data-copied");
      }, function () {
        if (area.select) { area.select(); } else { getSelection().selectAllChildren(area); }
      });
    });
  }
})();
