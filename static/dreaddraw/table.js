// Dread Draw tables: keep the log scrolled to the newest line, keep "Chance of success" open once opened, keep a
// keyboard user's focus in the board across its swaps, tell screen readers what each new board brings, say when a
// decision could not reach the table, and show only the seat rows the chosen number of players uses. (Refused
// decisions, 4xx, swap in as every page's do: base.html.)
(function () {
  "use strict";
  function scrollLog() {
    var log = document.querySelector(".dd-log ol");
    if (log) { log.scrollTop = log.scrollHeight; }
  }
  document.addEventListener("htmx:afterSettle", scrollLog);
  document.addEventListener("DOMContentLoaded", scrollLog);

  // "Chance of success" stays open across the board's swaps once the player opens it (and closed once closed):
  // each new board draws it closed. Remembered for this table's page, for this tab.
  var CHANCE_KEY = "dd-chance-open:" + location.pathname;
  function rememberedChance() {
    try { return sessionStorage.getItem(CHANCE_KEY) === "1"; } catch (e) { return false; }
  }
  function restoreChance() {
    var chance = document.querySelector("#board details.dd-chance");
    if (chance && rememberedChance()) { chance.open = true; }
  }
  document.addEventListener("toggle", function (event) {  // toggle does not bubble: caught on its way down
    if (!event.target.matches || !event.target.matches("details.dd-chance")) { return; }
    try { sessionStorage.setItem(CHANCE_KEY, event.target.open ? "1" : "0"); } catch (e) { /* storage refused */ }
  }, true);
  document.addEventListener("htmx:afterSwap", restoreChance);
  document.addEventListener("DOMContentLoaded", restoreChance);

  // A decision, or a poll that finds the table moved on, replaces the board and what had the focus in it. For a
  // keyboard user the focus goes to the same decision in the new board, else to its first decision, else to its
  // turn heading: the next Tab goes on from the board, not from the page's end.
  var byKeyboard = false, hadFocus = false, decision = null, wasDeciding = false, ownDecision = false;
  document.addEventListener("keydown", function () { byKeyboard = true; }, true);
  document.addEventListener("pointerdown", function () { byKeyboard = false; }, true);
  document.addEventListener("htmx:beforeSwap", function (event) {
    var active = document.activeElement, target = event.detail.target;
    hadFocus = Boolean(byKeyboard && active && active !== document.body && target && target.contains(active));
    decision = hadFocus && active.dataset ? active.dataset.decision || null : null;
    wasDeciding = Boolean(document.querySelector("#board [data-decision]"));
    ownDecision = event.detail.requestConfig && event.detail.requestConfig.verb === "post";
  });

  // Screen readers hear what a new board brings through #dd-live, outside the board: the newest log lines (a few at
  // most) and the turn line. A live region inside the board is replaced with it, and seldom read out.
  var logCount = null;
  function logLines() {
    return Array.prototype.map.call(document.querySelectorAll("#board .dd-log li"), function (line) {
      return line.textContent.replace(/\s+/g, " ").trim();
    });
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.shouldSwap && event.detail.target && event.detail.target.id === "board") {
      logCount = logLines().length;
    }
  });
  document.addEventListener("htmx:afterSettle", function () {
    var live = document.querySelector("#dd-live"), turn = document.querySelector("#turn-h");
    if (logCount === null || !live || !turn) { return; }
    var lines = logLines().slice(logCount).slice(-3);
    logCount = null;
    live.textContent = lines.concat([turn.textContent.replace(/\s+/g, " ").trim()]).join(" ");
  });

  // On a small screen the next decision (a card to keep, an ability to use, a Reserve to summon) may lie a screen
  // below the buttons just pressed, or above them, or be cut by the window's edge: after the player's own decision,
  // or when the table comes to them, the decision is brought wholly into view unless every one of its buttons
  // already is (a keyboard user's focus does the same). Its prompt comes with it when the window holds the whole
  // prompt, else its buttons alone.
  function wholeInView(element) {
    var box = element.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  }
  function showDecision(board) {
    var choices = board.querySelectorAll("[data-decision]");
    if (!choices.length || Array.prototype.every.call(choices, wholeInView)) { return; }
    var place = choices[0].closest(".dd-prompt, .dd-pile, .dd-reserves") || choices[0];
    if (place.getBoundingClientRect().height > window.innerHeight) {
      place = choices[0].closest(".dd-choices") || choices[0];
    }
    var still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    place.scrollIntoView({block: "nearest", behavior: still ? "auto" : "smooth"});
  }
  document.addEventListener("htmx:afterSettle", function () {
    var board = document.querySelector("#board");
    if (board && !hadFocus && (ownDecision || !wasDeciding)) { showDecision(board); }
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

  // A decision that never reached the table, or that the server could not answer (5xx), swaps nothing in: without a
  // word the click looked ignored. It is said above the board, and goes with the next board that arrives.
  function boardNotice(text) {
    var board = document.querySelector("#board");
    if (!board) { return; }
    var box = document.querySelector("#dd-connection");
    if (!box) {
      box = document.createElement("p");
      box.id = "dd-connection";
      box.className = "error dd-error";
      box.setAttribute("role", "alert");
      board.parentNode.insertBefore(box, board);
    }
    box.textContent = text;
  }
  function onBoard(event) {
    var board = document.querySelector("#board");
    return Boolean(board && event.detail.elt && (board === event.detail.elt || board.contains(event.detail.elt)));
  }
  document.addEventListener("htmx:sendError", function (event) {
    if (onBoard(event)) {
      boardNotice("Connection lost: the table did not answer, and the board is as it was. Try again once the " +
                  "connection is back.");
    }
  });
  document.addEventListener("htmx:responseError", function (event) {
    if (onBoard(event) && event.detail.xhr.status >= 500) {
      boardNotice("The server could not answer (" + event.detail.xhr.status + "); nothing was played. Try again " +
                  "in a moment.");
    }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var box = document.querySelector("#dd-connection");
    if (box && event.detail.target && event.detail.target.id === "board") { box.remove(); }
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
