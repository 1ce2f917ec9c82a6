// The goldfish table's keyboard and reading aids, around the server-rendered board (htmx swaps #table):
// - the log follows its latest line;
// - Escape clears the selected card or unit;
// - after a selection the focus goes to the first lit cell (or the selection's menu), so that Enter acts;
//   after an action it returns to the hand card or cell it left, or to the board.
const TABLE = "#table";

function scrollLogs(root) {
  root.querySelectorAll(".log-lines").forEach((log) => { log.scrollTop = log.scrollHeight; });
}

// What had the focus before a swap, as a selector that finds its counterpart in the new table; kept for
// keyboard users only (after a click, a card given the focus would show its large view over the log).
let focusKey = null;
let byKeyboard = false;
document.addEventListener("keydown", () => { byKeyboard = true; }, true);
document.addEventListener("pointerdown", () => { byKeyboard = false; }, true);

function keyOf(element) {
  const cell = element.closest("[data-cell]");
  if (cell) { return `[data-cell="${cell.dataset.cell}"] a, [data-cell="${cell.dataset.cell}"] [tabindex]`; }
  const hand = element.closest(".hand-tile");
  if (hand) { return `.hand-card[href="${hand.querySelector(".hand-card")?.getAttribute("href")}"]`; }
  return null;
}

function restoreFocus(table) {
  if (table.dataset.selection) {
    const next = table.querySelector(".cell-target") || table.querySelector(".menu-action");
    if (next) { next.focus(); return; }
  }
  const back = focusKey && table.querySelector(focusKey);
  (back || table.querySelector(".hand-card, .bar-action, .board a, .board [tabindex]"))?.focus();
}

document.addEventListener("htmx:beforeSwap", (event) => {
  const active = document.activeElement;
  focusKey = byKeyboard && active && event.detail.target?.contains(active) ? keyOf(active) : null;
});

document.addEventListener("htmx:afterSettle", () => {
  const table = document.querySelector(TABLE);
  if (!table) { return; }
  scrollLogs(document);
  if (byKeyboard && (focusKey !== null || table.dataset.selection)) { restoreFocus(table); }
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

// The opponent's actions play out one by one: the answer to a move carries data-play-from/to (the actions the
// opponent took); the page then shows the table after each of them (?at=N, read-only) at the chosen speed,
// and the live table at the end. "Skip to the end" and a speed of 0 go straight to the live table.
const SPEED_KEY = "dreadgate.table.speed";
let playTimer = null;

function speed() {
  const stored = window.localStorage?.getItem(SPEED_KEY);
  return stored === null || stored === undefined ? 700 : Number(stored);
}

function load(query) {
  window.htmx.ajax("GET", `${window.location.pathname}${query}`, { target: TABLE, swap: "outerHTML" });
}

function schedulePlayback(table) {
  clearTimeout(playTimer);
  const select = table.querySelector(".playback-speed");
  if (select) { select.value = String(speed()); }
  if (table.dataset.playFrom !== undefined) {
    const from = Number(table.dataset.playFrom);
    if (speed() > 0) { playTimer = setTimeout(() => load(`?at=${from}`), 0); }
  } else if (table.dataset.watchStep !== undefined) {
    const step = Number(table.dataset.watchStep);
    const end = Number(table.dataset.watchEnd);
    const next = step + 1 < end && speed() > 0 ? `?at=${step + 1}` : "?";
    playTimer = setTimeout(() => load(next), speed());
  }
}

document.addEventListener("change", (event) => {
  if (!event.target.classList?.contains("playback-speed")) { return; }
  window.localStorage?.setItem(SPEED_KEY, event.target.value);
  const table = document.querySelector(TABLE);
  if (table?.dataset.watchStep !== undefined) { schedulePlayback(table); }
});
document.addEventListener("htmx:beforeRequest", () => clearTimeout(playTimer));
document.addEventListener("htmx:afterSettle", () => {
  const table = document.querySelector(TABLE);
  if (table) { schedulePlayback(table); }
});

// Drag and drop from the hand: a card carries the cells it may be dropped on (data-drops="c1=2,4,2;..."):
// while it is dragged they are marked, and a drop plays the action there. Choosing by click or keyboard
// (select the card, then a lit cell) does the same.
let dragged = null;

function dropCells() {
  return document.querySelectorAll(`${TABLE} .board [data-cell].drop-target`);
}

document.addEventListener("dragstart", (event) => {
  const card = event.target.closest?.(".hand-card[data-drops]");
  if (!card) { return; }
  dragged = Object.fromEntries(card.dataset.drops.split(";").map((pair) => pair.split("=")));
  event.dataTransfer.setData("text/plain", card.getAttribute("href"));
  event.dataTransfer.effectAllowed = "move";
  Object.keys(dragged).forEach((cell) => {
    document.querySelector(`${TABLE} .board [data-cell="${cell}"]`)?.classList.add("drop-target");
  });
});

document.addEventListener("dragend", () => {
  dragged = null;
  dropCells().forEach((cell) => cell.classList.remove("drop-target"));
});

document.addEventListener("dragover", (event) => {
  const cell = event.target.closest?.("[data-cell].drop-target");
  if (cell && dragged) { event.preventDefault(); }
});

document.addEventListener("drop", (event) => {
  const cell = event.target.closest?.("[data-cell].drop-target");
  if (!cell || !dragged) { return; }
  event.preventDefault();
  const form = document.querySelector("#act-form");
  window.htmx.ajax("POST", form.getAttribute("action"),
    { source: form, target: TABLE, swap: "outerHTML", values: { action: dragged[cell.dataset.cell] } });
});
