// The battlefield is one stop of the Tab order, as a grid is (WAI-ARIA's grid pattern): the arrow keys move between
// its units and cells, Home and End go to the first and last, and Tab leaves it for the turn's buttons. Without
// this, a board of a dozen units (each with its carried items) put thirty Tabs between the hand and "End turn".
// While a card or unit is selected, the cells and units it can act on stay in the Tab order as well: they are the
// choices of the moment, and Tab walks them as it walks a menu.
const FOCUSABLE = "a[href], button, [tabindex]";
const CHOICE = ".cell-target, .unit-target";

function stops(board) {
  return [...board.querySelectorAll(FOCUSABLE)].filter((el) => !el.closest("[hidden]") && !el.disabled);
}

// The element that holds the board's Tab stop: the one that had the focus last, if the board still has it (a swap
// renders it anew: found by its cell and kind), else the selected unit, else the first.
let remembered = null;

function rove(board, current) {
  const all = stops(board);
  if (!all.length) { return; }
  const holder = (current && all.includes(current) && current)
    || (remembered && board.querySelector(remembered))
    || board.querySelector(".cell.selected .unit-face") || all[0];
  all.forEach((el) => {
    el.tabIndex = el === holder || el.matches(CHOICE) ? 0 : -1;
  });
}

function placeOf(el) {
  const row = el.closest('[role="row"]');
  const rows = [...el.closest(".board").querySelectorAll('[role="row"]')];
  const column = row ? [...row.querySelectorAll('[role="gridcell"]')].indexOf(el.closest('[role="gridcell"]')) : 0;
  return { row: rows.indexOf(row), column };
}

function memoryOf(el) {
  const cell = el.closest("[data-cell]");
  if (!cell) { return null; }
  const kind = [".unit-face", ".carried", ".cell-target"].find((selector) => el.matches(selector));
  return kind ? `[data-cell="${cell.dataset.cell}"] ${kind}` : null;
}

// The next stop from `from` for the key: along the reading order for the left and right arrows, and for up and down
// the stop of the nearest row above or below whose column is closest.
function next(board, from, key) {
  const all = stops(board);
  const at = all.indexOf(from);
  if (key === "Home") { return all[0]; }
  if (key === "End") { return all[all.length - 1]; }
  if (key === "ArrowRight") { return all[Math.min(at + 1, all.length - 1)]; }
  if (key === "ArrowLeft") { return all[Math.max(at - 1, 0)]; }
  const here = placeOf(from);
  const step = key === "ArrowDown" ? 1 : -1;
  const places = all.map((el) => ({ el, ...placeOf(el) }));
  for (let row = here.row + step; places.some((p) => (step > 0 ? p.row >= row : p.row <= row)); row += step) {
    const inRow = places.filter((p) => p.row === row);
    if (inRow.length) {
      const distance = (p) => Math.abs(p.column - here.column);
      return inRow.reduce((best, p) => (distance(p) < distance(best) ? p : best)).el;
    }
  }
  return from;
}

const KEYS = new Set(["ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown", "Home", "End"]);

document.addEventListener("keydown", (event) => {
  const board = event.target.closest?.(".board");
  if (!board || !KEYS.has(event.key) || event.altKey || event.ctrlKey || event.metaKey) { return; }
  const target = next(board, event.target.closest(FOCUSABLE) || event.target, event.key);
  event.preventDefault();  // the page does not scroll under the board
  if (target && target !== event.target) {
    rove(board, target);
    target.focus();
  }
});

document.addEventListener("focusin", (event) => {
  const board = event.target.closest?.(".board");
  if (!board) { return; }
  remembered = memoryOf(event.target);
  rove(board, event.target);
});

// Each board the page shows, and each one a swap brings.
function keepBoardsOneTabStop() {
  document.querySelectorAll(".board").forEach((board) => {
    rove(board, board.contains(document.activeElement) ? document.activeElement : null);
  });
}

keepBoardsOneTabStop();
document.addEventListener("htmx:afterSettle", () => keepBoardsOneTabStop());
