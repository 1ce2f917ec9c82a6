// The replay viewer's play/pause: while playing, follow the "Next" link every second until the last step.
// The links, the scrubber and the log work without it; the log follows its latest line.
const DELAY_MS = 1000;
let playing = false;
let timer = null;

function replay() { return document.querySelector("#replay"); }

function sync() {
  const root = replay();
  if (!root) { return; }
  root.querySelectorAll(".log-lines").forEach((log) => { log.scrollTop = log.scrollHeight; });
  const button = root.querySelector(".replay-play");
  if (!button) { return; }
  button.hidden = false;
  button.setAttribute("aria-pressed", String(playing));
  button.querySelector(".play-word").textContent = playing ? "Pause" : "Play";
  clearTimeout(timer);
  const next = root.querySelector('a[rel="next"]');
  if (playing && next) {
    timer = setTimeout(() => next.click(), DELAY_MS);
  } else if (playing) {
    playing = false;
    sync();
  }
}

document.addEventListener("click", (event) => {
  const button = event.target.closest?.(".replay-play");
  if (!button) { return; }
  playing = !playing;
  sync();
});
// A step swaps the whole viewer: the control that took it (Next, the scrubber, Play) has the focus again in the new
// one, so that a keyboard's next Enter or arrow takes the next step. Past the first or last step, where Previous or
// Next is gone, the focus goes to Start or End.
const INSTEAD = {prev: "start", next: "end"};
let focusedControl = null;

document.addEventListener("htmx:beforeSwap", (event) => {
  const root = replay();
  const active = document.activeElement;
  focusedControl = root && event.detail.target === root && root.contains(active) ? active.dataset.control || null : null;
});

document.addEventListener("htmx:afterSettle", () => {
  sync();  // first: the new viewer's Play button comes hidden (it needs this script) until sync shows it
  const root = replay();
  if (root && focusedControl) {
    const again = root.querySelector(`[data-control="${focusedControl}"]`) ||
      root.querySelector(`[data-control="${INSTEAD[focusedControl]}"]`);
    if (again && !again.hidden) { again.focus(); }
  }
  focusedControl = null;
});
sync();
