// Dread Draw tables: keep the log scrolled to the newest line, and show only the seat rows the
// chosen number of players uses. (Refused decisions, 4xx, swap in as every page's do: base.html.)
(function () {
  "use strict";
  function scrollLog() {
    var log = document.querySelector(".dd-log ol");
    if (log) { log.scrollTop = log.scrollHeight; }
  }
  document.addEventListener("htmx:afterSettle", scrollLog);
  document.addEventListener("DOMContentLoaded", scrollLog);

  // Each start form (table or tournament) shows only the seat rows its "Players" choice uses. Without
  // scripts its "Show the seats" button asks the server for the same; with them it is not needed.
  function syncSeats(select) {
    var n = parseInt(select.value, 10);
    select.form.querySelectorAll(".dd-seat-row").forEach(function (row, i) { row.hidden = i >= n; });
  }
  document.addEventListener("change", function (event) {
    if (event.target && event.target.name === "players") { syncSeats(event.target); }
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("select[name=players]").forEach(syncSeats);
    document.querySelectorAll(".dd-seats-update").forEach(function (button) { button.remove(); });
  });
})();
