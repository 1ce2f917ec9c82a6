// The goldfish table's keyboard and reading aids, around the server-rendered board (htmx swaps #table):
// - the log follows its latest line;
// - Escape clears the selected card or unit;
// - after a selection the focus goes to the first lit cell (or the selection's menu), so that Enter acts;
//   after an action it returns to the hand card or cell it left, or to the board.
const TABLE = "#table";

function scrollLogs(root) {
  root.querySelectorAll(".log-lines").forEach((log) => { log.scrollTop = log.scrollHeight; });
}

// What had the focus before a swap, as a selector that finds its counterpart in the new table.
let focusKey = null;

function keyOf(element) {
  const cell = element.closest("[data-cell]");
  if (cell) { return `[data-cell="${cell.dataset.cell}"] a, [data-cell="${cell.dataset.cell}"] [tabindex]`; }
  const hand = element.closest(".hand-tile");
  if (hand) { return `.hand-card[href="${hand.querySelector(".hand-card")?.getAttribute("href")}"]`; }
  return null;
}

function restoreFocus(table) {
  if (table.dataset.selection) {
    const next = table.querySelector(".cell-target, .menu-action");
    if (next) { next.focus(); return; }
  }
  const back = focusKey && table.querySelector(focusKey);
  (back || table.querySelector(".hand-card, .bar-action, .board a, .board [tabindex]"))?.focus();
}

document.addEventListener("htmx:beforeSwap", (event) => {
  const active = document.activeElement;
  focusKey = active && event.detail.target?.contains(active) ? keyOf(active) : null;
});

document.addEventListener("htmx:afterSettle", () => {
  const table = document.querySelector(TABLE);
  if (!table) { return; }
  scrollLogs(document);
  if (focusKey !== null || table.dataset.selection) { restoreFocus(table); }
});

document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") { return; }
  const clear = document.querySelector(`${TABLE} .clear-selection`);
  if (clear) {
    event.preventDefault();
    clear.click();
  }
});

scrollLogs(document);
