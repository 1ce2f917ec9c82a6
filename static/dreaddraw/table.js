// Dread Draw tables: show refused decisions (4xx) in place, keep the log scrolled to the newest line,
// and show only the seat rows the chosen number of players uses.
(function () {
  "use strict";
  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    if (status === 400 || status === 403 || status === 409) {
      event.detail.shouldSwap = true;   // the response is the board with the refusal message
      event.detail.isError = false;
    }
  });
  function scrollLog() {
    var log = document.querySelector(".dd-log ol");
    if (log) { log.scrollTop = log.scrollHeight; }
  }
  document.addEventListener("htmx:afterSettle", scrollLog);
  document.addEventListener("DOMContentLoaded", scrollLog);

  // Each start form (table or tournament) shows only the seat rows its "Players" choice uses.
  function syncSeats(select) {
    var n = parseInt(select.value, 10);
    select.form.querySelectorAll(".dd-seat-row").forEach(function (row, i) { row.hidden = i >= n; });
  }
  document.addEventListener("change", function (event) {
    if (event.target && event.target.name === "players") { syncSeats(event.target); }
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("select[name=players]").forEach(syncSeats);
  });
})();
