/* The new-tournament form: filter the (possibly long) list of entrants by name. */
(function () {
  "use strict";
  var input = document.getElementById("entrant-filter");
  var list = document.getElementById("entrant-list");
  if (!input || !list) return;
  input.hidden = false;
  input.addEventListener("input", function () {
    var needle = input.value.trim().toLowerCase();
    list.querySelectorAll("label").forEach(function (label) {
      label.hidden = needle !== "" && label.textContent.toLowerCase().indexOf(needle) < 0;
    });
  });
})();
