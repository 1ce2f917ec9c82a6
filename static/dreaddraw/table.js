// Dread Draw tables: keep the log scrolled to the newest line, keep a keyboard user's focus in the board across
// its swaps, and show only the seat rows the chosen number of players uses. (Refused decisions, 4xx, swap in as
// every page's do: base.html.)
(function () {
  "use strict";
  function scrollLog() {
    var log = document.querySelector(".dd-log ol");
    if (log) { log.scrollTop = log.scrollHeight; }
  }
  document.addEventListener("htmx:afterSettle", scrollLog);
  document.addEventListener("DOMContentLoaded", scrollLog);

  // A decision, or a poll that finds the table moved on, replaces the board and what had the focus in it. For a
  // keyboard user the focus goes to the same decision in the new board, else to its first decision, else to its
  // turn heading: the next Tab goes on from the board, not from the page's end.
  var byKeyboard = false, hadFocus = false, decision = null;
  document.addEventListener("keydown", function () { byKeyboard = true; }, true);
  document.addEventListener("pointerdown", function () { byKeyboard = false; }, true);
  document.addEventListener("htmx:beforeSwap", function (event) {
    var active = document.activeElement, target = event.detail.target;
    hadFocus = Boolean(byKeyboard && active && active !== document.body && target && target.contains(active));
    decision = hadFocus && active.dataset ? active.dataset.decision || null : null;
  });
  document.addEventListener("htmx:afterSettle", function () {
    var board = document.querySelector("#board");
    if (!hadFocus || !board) { return; }
    hadFocus = false;
    var next = (decision && board.querySelector('[data-decision="' + CSS.escape(decision) + '"]')) ||
      board.querySelector("[data-decision]");
    if (!next) {
      next = board.querySelector("#turn-h");
      next.setAttribute("tabindex", "-1");
    }
    next.focus();
  });

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
