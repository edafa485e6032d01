/* Keeps a running tournament's standings fresh: polls the page's live fragment every few
 * seconds and swaps it in; stops once the tournament is over (then reloads once, for the
 * final page). No dependencies. */
(function () {
  "use strict";
  var EVERY_MS = 3000;
  var failures = 0;

  function poll() {
    var live = document.getElementById("live");
    if (!live) return;
    fetch(live.getAttribute("data-live-url"), { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        var status = response.headers.get("X-Tournament-Status");
        return response.text().then(function (html) { return { html: html, status: status }; });
      })
      .then(function (result) {
        failures = 0;
        var current = document.getElementById("live");
        if (current) current.outerHTML = result.html;
        if (result.status === "running") setTimeout(poll, EVERY_MS);
        else window.location.reload();
      })
      .catch(function () {
        failures += 1;
        setTimeout(poll, EVERY_MS * Math.min(10, 1 + failures));
      });
  }

  setTimeout(poll, EVERY_MS);
})();
