// The goldfish table's keyboard and reading aids, around the server-rendered board (htmx swaps #table):
// - the log follows its latest line;
// - Escape clears the selected card or unit, and the focus goes back to it;
// - after a selection the focus goes to the first lit cell (or the selection's menu), so that Enter acts;
//   after an action it returns to the hand card, cell or turn button it left, or else to the decision's start; a new
//   decision (after the opponent's actions, in a new turn, an answer asked for) starts at its start: an answer's first
//   button, the game's end, or else the status line, from which Tab goes on to the turn's buttons;
// - the hand's strip keeps its place across a swap (on a phone it scrolls sideways);
// - an answer in error that is not the table is never swapped in for it: the table stays, and says what happened;
// - the opponent's last action is said in a live region outside the swapped table;
// - when the server can't be reached the page says so once, sends nothing more but a retry that backs off (2 s,
//   doubling to 30 s: at most six requests in any minute), and takes the live table back by itself when it answers.
const TABLE = "#table";

function scrollLogs(root) {
  root.querySelectorAll(".log-lines").forEach((log) => { log.scrollTop = log.scrollHeight; });
}

// Whether the table had the focus before a swap, and what had it, as a selector that finds its counterpart in the
// new table; kept for keyboard users only (after a click, a card given the focus would show its large view over the
// log). A swap removes what had the focus: without this, the next Tab would start from the end of the page.
let refocus = false;
let focusKey = null;
let byKeyboard = false;
document.addEventListener("keydown", () => { byKeyboard = true; }, true);
document.addEventListener("pointerdown", () => { byKeyboard = false; }, true);

function keyOf(element) {
  if (element.id === "notation") { return "#notation"; }  // the command box: the next command is typed there
  const cell = element.closest("[data-cell]");
  if (cell) {
    const at = `[data-cell="${cell.dataset.cell}"]`;
    return `${at} a, ${at} button.unit-face, ${at} [tabindex]`;
  }
  const hand = element.closest(".hand-tile");
  if (hand) { return `.hand-card[data-key="${hand.querySelector(".hand-card")?.dataset.key}"]`; }
  if (element.matches(".bar-action")) { return `.bar-action[value="${CSS.escape(element.value)}"]`; }
  if (element.matches(".turn-status")) { return ".turn-status"; }
  return null;
}

// The decision the table asks of the person now (data-decision: "turn", "answer" in a response window, "over"), and
// in which turn; none while the opponent's actions play out, nor in a table about to play them out.
function decisionOf(table) {
  if (!table?.dataset.decision || (table.dataset.playFrom !== undefined && speed() > 0)) { return ""; }
  return `${table.dataset.decision} ${table.dataset.turn}`;
}
let decisionBefore = "";  // the decision of the table a swap replaced

// Where a decision starts: in a response window its first answer (an instant, or letting the action stand), at the
// game's end its first control, else the status line (not a hand card: one that can't be played would be no place to
// start, and its large view would cover the opponent's last action).
function decisionStart(table) {
  const decision = table.dataset.decision;
  const first = decisionOf(table) && ({ answer: ".turn-bar .bar-action", over: ".game-over button, .game-over a" })[decision];
  return (first && table.querySelector(first)) || table.querySelector(".turn-status");
}

function restoreFocus(table) {
  if (table.dataset.selection) {
    // Never a card's recycling: a second Enter would throw the card away. With nothing else to do, the focus stays on
    // the card, where Enter clears the selection.
    const next = table.querySelector(".cell-target, .unit-target")
      || table.querySelector(".menu-action:not([data-recycles])") || table.querySelector(".hand-card.selected");
    if (next) { next.focus(); return; }
  }
  // A new decision (after the opponent's actions played out, in a new turn, an answer asked for in place of the
  // turn's actions) starts at its start; the same decision goes on where the focus was. While the opponent's actions
  // play out the focus is on the status line, never on the opponent's units (nor a card's large view).
  const decision = decisionOf(table);
  const fresh = decision && (decision !== decisionBefore || table.dataset.playFrom !== undefined);
  const back = !fresh && focusKey && table.querySelector(focusKey);
  (back || decisionStart(table))?.focus();
}

// A refusal of the rules or of a form is the table itself, answered with its message in place (a 4xx page the table's
// views render). Any other answer (the site's error page for a body too large, a request throttled or a forbidden
// one, a server error; the login page a request is sent to once the session has ended) is a page of its own, without
// the table's stylesheet and without the table: swapped in, it would replace the board with it. It is never swapped
// in: the table stays as it was and shows the message, or the page the request was sent to opens as a page.
function tableMessage(label, text) {
  const slot = document.querySelector("#table-message");
  if (!slot) { return; }
  const box = document.createElement("div");
  box.className = "refusal";
  box.setAttribute("role", "alert");
  box.innerHTML = '<svg class="icon" aria-hidden="true" focusable="false"><use href="#i-alert"></use></svg> ';
  const strong = document.createElement("strong");
  strong.textContent = label;
  box.append(strong, ` ${text}`);
  slot.replaceChildren(box);
}

function errorText(xhr) {
  const type = xhr.getResponseHeader("Content-Type") || "";
  const body = xhr.responseText || "";
  let text = "";
  if (type.includes("json")) {
    try { text = JSON.parse(body)?.error?.message || ""; } catch { text = ""; }
  } else if (type.includes("html")) {
    const page = new DOMParser().parseFromString(body, "text/html");
    text = (page.querySelector("main p") || page.querySelector("p"))?.textContent || "";
  } else {
    text = body.length < 300 ? body : "";
  }
  text = text.trim().replace(/\s+/g, " ");
  return text || `the server answered ${xhr.status} ${xhr.statusText || ""}`.trim() + "; nothing was played.";
}

// --- Connection state ---------------------------------------------------------------------------------------------
// A request that could not be sent, or that a proxy answered for a server that is down (502 to 504), means the
// connection is lost: the banner says so (once: its words do not change with each try), every request the page would
// send is held back, and the live table is asked for again after 2, 4, 8, 16 and then every 30 seconds. The first
// answer ends it: the banner goes, the live region says so, and the table is swapped in as the server has it.
const RETRY_MOST = 30000;
const DOWN = new Set([502, 503, 504]);
let offline = false;
let retryDelay = 0;
let retryTimer = null;
let retrying = false;  // the retry's own request, the one let through while offline

function banner() { return document.querySelector("#connection"); }

function announce(text) {
  const region = document.querySelector("#table-announce");
  if (region && region.textContent !== text) { region.textContent = text; }
}

function connectionLost() {
  if (!offline) {
    offline = true;
    const box = banner();
    retryDelay = Number(box?.dataset.retryFirst) || 2000;  // the first wait, in the banner's markup
    if (box) {
      box.innerHTML = '<svg class="icon" aria-hidden="true" focusable="false"><use href="#i-alert"></use></svg> ';
      box.append("Connection lost, retrying. Nothing you play is sent until the server answers again.");
      box.hidden = false;
    }
  }
  clearTimeout(playTimer);
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => {
    retrying = true;
    load("?");
  }, retryDelay);
  retryDelay = Math.min(retryDelay * 2, RETRY_MOST);
}

function connectionBack() {
  clearTimeout(retryTimer);
  if (!offline) { return; }
  offline = false;
  const box = banner();
  if (box) { box.hidden = true; box.replaceChildren(); }
  announce("Connection restored.");
}

document.addEventListener("htmx:beforeRequest", (event) => {
  if (offline && !retrying) { event.preventDefault(); }  // held back: the retry is the only request while offline
  retrying = false;
});

document.addEventListener("htmx:sendError", (event) => {
  if (event.detail.target?.matches?.(TABLE)) { connectionLost(); }
});

document.addEventListener("htmx:beforeSwap", (event) => {
  const detail = event.detail;
  if (!detail.target?.matches?.(TABLE)) { return; }
  if (detail.xhr.status === 204) {  // a thinking table's poll: nothing new, the page stays as it is
    connectionBack();
    return;
  }
  if (/<div id="table"/.test(detail.serverResponse || "")) {
    connectionBack();
    detail.shouldSwap = true;  // the table, with a refusal in place if it is one
    return;
  }
  detail.shouldSwap = false;
  if (DOWN.has(detail.xhr.status)) {
    connectionLost();
    return;
  }
  connectionBack();  // an answer, if not the table: the server is there
  const sentTo = detail.xhr.responseURL ? new URL(detail.xhr.responseURL) : null;
  if (!detail.isError && sentTo && sentTo.pathname !== window.location.pathname) {
    window.location.assign(sentTo.href);  // redirected elsewhere (to log in again): that page, as a page
  } else if (detail.isError) {
    tableMessage(detail.xhr.status < 500 ? "Refused:" : "Error:", errorText(detail.xhr));
  } else {
    tableMessage("Error:", "the server did not answer with the table; reload the page.");
  }
});

// Escape clears a selection: the focus goes back to the card or unit that was selected, not to the turn's buttons.
let escapedFrom = null;

// A command refused stays in its box, to be mended rather than typed again.
let refusedCommand = null;

document.addEventListener("htmx:beforeSwap", (event) => {
  const active = document.activeElement;
  decisionBefore = decisionOf(document.querySelector(TABLE));
  refocus = Boolean(byKeyboard && active && event.detail.target?.contains(active));
  focusKey = refocus ? keyOf(active) : null;
  const box = document.querySelector(`${TABLE} #notation`);
  refusedCommand = event.detail.xhr.status >= 400 && box?.value ? box.value : null;
  if (escapedFrom) {
    refocus = true;
    focusKey = escapedFrom;
    escapedFrom = null;
  }
});

// The hand's strip scrolls sideways on a phone, and on a wide screen a large hand scrolls in its own region: the new
// table's hand is scrolled where the old one was, then, if the card selected is out of the region's view (the
// selection's box under the hand took room from it), only as far as shows that card, the page left where it is.
let handScroll = [0, 0];
document.addEventListener("htmx:beforeSwap", () => {
  const hand = document.querySelector(`${TABLE} .hand`);
  handScroll = hand ? [hand.scrollLeft, hand.scrollTop] : [0, 0];
});
document.addEventListener("htmx:afterSwap", () => {
  const hand = document.querySelector(`${TABLE} .hand`);
  if (!hand) { return; }
  [hand.scrollLeft, hand.scrollTop] = handScroll;
});
function showSelectedCard(table) {
  const hand = table.querySelector(".hand");
  const card = hand?.querySelector(".hand-card.selected");
  if (!card || hand.scrollHeight <= hand.clientHeight) { return; }
  const [region, shown] = [hand.getBoundingClientRect(), card.getBoundingClientRect()];
  if (shown.top < region.top) { hand.scrollTop -= region.top - shown.top; }
  else if (shown.bottom > region.bottom) { hand.scrollTop += shown.bottom - region.bottom; }
}

// The opponent's last action, said when it changes (the line above the board shows it; a live region inside the
// swapped table would be replaced, not changed, and not reliably read)
let lastWords = document.querySelector(`${TABLE} .last-move`)?.dataset.words || "";
function sayLastMove(table) {
  const words = table.querySelector(".last-move")?.dataset.words || "";
  if (words && words !== lastWords) { announce(`The opponent's last action: ${words}`); }
  lastWords = words;
}

document.addEventListener("htmx:afterSettle", () => {
  const table = document.querySelector(TABLE);
  if (!table) { return; }
  scrollLogs(document);
  sayLastMove(table);
  const box = table.querySelector("#notation");
  if (box && refusedCommand) { box.value = refusedCommand; }
  refusedCommand = null;
  showSelectedCard(table);
  showSelection(table);
  if (byKeyboard && (refocus || table.dataset.selection)) { restoreFocus(table); }
});

// A selection's box (what the selected card or unit can do, or why a card can't be played) is under the hand on a
// phone, below the screen. A selection that lights nothing on the board has its choices all in the box: the box is
// brought into view, as little as will show it. One that lights cells leaves the page where it is: its choices are
// on the board, which does not move.
function showSelection(table) {
  const box = table.querySelector(".play-choice .selection");
  if (!box || !table.dataset.selection || table.querySelector(".cell-target, .unit-target")) { return; }
  const shown = box.getBoundingClientRect();
  if (shown.top < 0 || shown.bottom > window.innerHeight) { box.scrollIntoView({ block: "nearest" }); }
}

document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") { return; }
  const clear = document.querySelector(`${TABLE} .clear-selection`);
  if (clear) {
    event.preventDefault();
    const selected = document.querySelector(`${TABLE} .hand-card.selected, ${TABLE} .cell.selected .unit-face`);
    escapedFrom = selected ? keyOf(selected) : null;
    load("");  // as the link does, whether or not htmx has taken up the table just swapped in (else a page load)
  }
});

scrollLogs(document);

// The opponent's actions play out one by one: the answer to a move carries data-play-from (the step before the
// opponent's first action); the page then shows the table after each of them (?at=N, read-only) at the chosen speed,
// and the live table at the end. "Skip to the end" and a speed of 0 go straight to the live table.
const SPEED_KEY = "dreadgate.table.speed";
let playTimer = null;

function speed() {
  const stored = window.localStorage?.getItem(SPEED_KEY);
  return stored === null || stored === undefined ? 700 : Number(stored);
}

// The newest ask wins: one still on its way (a card's selection, when Escape clears it) is called off first, else it
// lands after the newer one; one called off answers nothing, which is no error to report.
function load(query) {
  document.querySelectorAll(`${TABLE}, ${TABLE} .htmx-request`).forEach((asking) => {
    window.htmx.trigger(asking, "htmx:abort");
  });
  window.htmx.ajax("GET", `${window.location.pathname}${query}`, { target: TABLE, swap: "outerHTML" })
    .catch(() => {});
}

function schedulePlayback(table) {
  clearTimeout(playTimer);
  const select = table.querySelector(".playback-speed");
  if (select) { select.value = String(speed()); }
  if (table.dataset.playFrom !== undefined) {
    const from = Number(table.dataset.playFrom);
    if (speed() > 0) { playTimer = setTimeout(() => load(`?at=${from}`), 0); }
  } else if (table.dataset.watchStep !== undefined) {
    // the server names the next step shown (a pass the person is not shown takes none, DG-15.7); then the live table
    const next = table.dataset.watchNext !== undefined && speed() > 0 ? `?at=${table.dataset.watchNext}` : "?";
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

// While they play out, the lines above the board keep the height they had at the person's decision (the status is
// shorter then, and there is no turn bar), so that the board and the hand stay where they were; the playback's bar is
// over the site's header. The live table at the end has its own height again.
let topHeight = 0;
const playing = (table) => table.dataset.watchStep !== undefined || (table.dataset.playFrom !== undefined && speed() > 0);
document.addEventListener("htmx:beforeSwap", () => {
  const table = document.querySelector(TABLE);
  const top = table?.querySelector(".play-top");
  if (top && !playing(table)) { topHeight = top.getBoundingClientRect().height; }
});
document.addEventListener("htmx:afterSwap", () => {
  const table = document.querySelector(TABLE);
  const top = table?.querySelector(".play-top");
  if (!top || !playing(table)) { return; }
  table.classList.add("playing");
  if (topHeight) { top.style.minHeight = `${topHeight}px`; }
});
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
