/* Trex Scorekeeper: Share the result. With the Web Share API the button shares the text and,
   when the phone can share files, the scoresheet's image; without it the button's link opens
   the text to copy and the image to download. The copy button copies the text. */
"use strict";
(function () {
  var button = document.getElementById("share-result");
  if (button && navigator.share) {
    button.hidden = false;
    button.addEventListener("click", function (event) {
      event.preventDefault();
      var text = button.getAttribute("data-share"), image = button.getAttribute("data-image");
      var send = function (data) {
        return navigator.share(data).catch(function () {});
      };
      if (!image || !navigator.canShare || !window.File) { send({text: text}); return; }
      fetch(image).then(function (r) { return r.ok ? r.blob() : null; }).then(function (blob) {
        var file = blob && new File([blob], image.split("/").pop().replace(/\?.*/, "") ||
                                    "trex.png", {type: "image/png"});
        send(file && navigator.canShare({files: [file]}) ? {text: text, files: [file]}
                                                          : {text: text});
      }, function () { send({text: text}); });
    });
  }
  var copy = document.getElementById("copy-result"), area = document.getElementById("share-text");
  if (copy && area && navigator.clipboard) {
    copy.hidden = false;
    copy.addEventListener("click", function () {
      navigator.clipboard.writeText(area.value).then(function () {
        copy.textContent = copy.getAttribute("data-copied");
      }, function () { area.select(); });
    });
  }
})();
