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

  function syncSeats() {
    var players = document.getElementById("dd-players");
    if (!players) { return; }
    var n = parseInt(players.value, 10);
    document.querySelectorAll(".dd-seat-row").forEach(function (row) {
      row.hidden = parseInt(row.getAttribute("data-seat"), 10) >= n;
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target && event.target.id === "dd-players") { syncSeats(); }
  });
  document.addEventListener("DOMContentLoaded", syncSeats);
})();
