// The deck editor: every click or key that changes the deck lands exactly once, in order.
//
// Changes go into a queue and are sent one at a time (each save answers with the deck panel as saved). The
// controls carry what they change in data attributes and are read when clicked, so a panel replaced by a save
// never drops a click. While changes are in flight the counts on screen are the saved counts plus the pending
// ones, marked as pending; once the queue is empty the saved panel replaces the page's. A refused change says
// why and its count goes back. A dropped connection keeps the queue and retries it in order; closing the page
// with changes not yet saved asks first. Undo and redo take back or replay this page's own changes, as new
// versions. Quick add takes "4 Name" lines, with names offered as you type.
(function () {
  "use strict";

  var editor, statusEl, queue = [], sending = false, sentView = "", savedVersion = 0, undoStack = [], redoStack = [];
  // The last refusal among changes saved one after another (fast clicks past a copy limit): still said when the
  // last of them is saved, so a burst never ends on a bare "Saved" over copies that were not added; and the last
  // save, still said when the last of them is refused, so it never ends on a bare refusal over copies that were.
  var burstRefusal = "", burstSaved = "";
  var RETRY_MS = [500, 1000, 2000, 4000];

  function panel() { return document.getElementById("panel"); }
  // The deck's own rows: the considering list's rows carry counts too, which are not the deck's.
  var DECK_ROWS = "li[data-card][data-count]:not(#considering li)";
  function csrfToken() {
    var headers = document.body.getAttribute("hx-headers");
    try { return JSON.parse(headers)["X-CSRFToken"]; } catch (e) { return ""; }
  }

  // --- the queue -----------------------------------------------------------------------------------------

  // Each change carries a key of its own: when the connection drops after the server saved a change, the change
  // is sent again with the same key and the server answers without saving it twice (decks/editor_saves.py).
  function newKey() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  function enqueue(change) {
    if (change.deferred === undefined) { change.fields.save = newKey(); }
    if (!change.fromHistory && change.deferred === undefined) { redoStack = []; }
    queue.push(change);
    showPending();
    pump();
  }

  function body(change) {
    var data = new URLSearchParams();
    Object.keys(change.fields).forEach(function (key) { data.append(key, change.fields[key]); });
    if (change.needsVersion) { data.append("version", String(savedVersion)); }
    var view = document.getElementById("deck-view"), group = document.getElementById("deck-group");
    var sort = document.getElementById("deck-sort"), odds = document.getElementById("odds-form");
    if (view) { data.append("view", view.value); }
    if (group) { data.append("group", group.value); }
    if (sort) { data.append("sort", sort.value); }
    if (odds) { new FormData(odds).forEach(function (value, key) { data.append(key, value); }); }
    return data;
  }

  // An undo or redo pressed while changes were saving waits for them, so it takes back the last of them: at the
  // head of the queue, it puts there the requests of the change it takes back.
  function takeDeferred() {
    while (!sending && queue.length && queue[0].deferred !== undefined) {
      var history = queue.shift().deferred;
      var stack = history === "undo" ? undoStack : redoStack;
      if (stack.length) { queue.unshift.apply(queue, requests(stack.pop(), history)); }
    }
  }

  function pump() {
    takeDeferred();
    if (sending || !queue.length) { return; }
    sending = true;
    sentView = currentView();
    send(queue[0], 0);
  }

  // What a panel is rendered for besides the deck: the view, its grouping and the draw odds asked for. A panel
  // answered for another than the one on screen (changed while it was on its way) is asked for again.
  function currentView() {
    var view = document.getElementById("deck-view"), group = document.getElementById("deck-group");
    var sort = document.getElementById("deck-sort"), odds = document.getElementById("odds-form");
    return (view ? view.value : "") + "/" + (group ? group.value : "") + "/" + (sort ? sort.value : "") + "?" +
      (odds ? new URLSearchParams(new FormData(odds)).toString() : "");
  }

  function send(change, attempt) {
    if (change.prepare) {  // what the change needs first (the names a quick-add line is read with), in its turn
      var prepare = change.prepare;
      change.prepare = null;
      prepare(function () { send(change, attempt); });
      return;
    }
    fetch(change.url, {method: "POST", body: body(change), credentials: "same-origin",
                       headers: {"X-CSRFToken": csrfToken(), "Accept": "text/html"}})
      .then(function (response) {
        if (response.status >= 500 || response.status === 429) { throw new Error("status " + response.status); }
        return response.text().then(function (html) { return {status: response.status, html: html}; });
      })
      // Only a lost connection (or the server's passing trouble) sends the change again: what happens once the
      // answer is in is not the network's, and must never send a change that has left the queue.
      .then(function (answer) { received(change, answer.status, answer.html); }, function () {
        setStatus("offline", "Connection lost: " + plural(queue.length, "change") + " waiting, sent again when it is back.");
        setTimeout(function () { send(change, attempt + 1); }, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]);
      });
  }

  function received(change, status, html) {
    var fresh = parsePanel(html);
    queue.shift();
    sending = false;
    if (!fresh) {
      if (change.step) { record(change, []); }
      var words = refusal(html, status);
      setStatus("failed", words);
      if (change.onDone) { change.onDone(status, null, words); }  // a dialog's text goes back to it, with the words
      pump();  // the changes made after this one are still sent
      return;
    }
    savedVersion = Number(fresh.dataset.version);
    var notice = fresh.querySelector("#save-status").textContent.trim();
    // An undo or a redo says so before what its save did ("Undone: Saved (version 13): Beetle: 2 → 0."): the card
    // it took back may be off screen.
    if (status === 200 && change.history) { notice = (change.history === "undo" ? "Undone: " : "Redone: ") + notice; }
    if (status === 200) {
      record(change, JSON.parse(fresh.dataset.changes || "[]"));
    } else if (change.step) {
      record(change, []);  // a refused part of an undo or redo: the rest of it is still one step
    }
    if (change.onDone) { change.onDone(status, fresh); }
    takeDeferred();
    // A burst of changes ends with one notice for all: the last save's, and the last refusal on either side of it
    // (five fast "+" past the copy limit saved some: "Saved (version 12): …. Not saved after it: at most 4 …").
    if (status !== 200) {
      burstRefusal = notice;
      if (!queue.length && burstSaved) { notice = burstSaved + " Not saved after it: " + notice; }
    } else {
      burstSaved = notice;
      if (!queue.length && burstRefusal) { notice += " Not saved before it: " + burstRefusal; }
    }
    if (!queue.length) { burstRefusal = burstSaved = ""; }
    if (queue.length) {
      adoptCounts(fresh);
      if (status !== 200) { setStatus("failed", notice); }
      showPending();
      pump();
      if (change.onShown) { change.onShown(status); }
    } else if (currentView() !== sentView) {
      // The player switched between the list and the piles, or changed the odds, while this save was on its way:
      // its panel is in the view it was sent from, so the panel is asked again for the one on screen.
      adoptCounts(fresh);
      refreshPanel(status === 200 ? "saved" : "failed", notice);
    } else {
      replacePanel(fresh);
      if (status === 200) { setStatus("saved", notice); } else { setStatus("failed", notice); }
      if (change.onShown) { change.onShown(status); }
    }
  }

  // How the deck is shown: the list or the piles, their grouping and the order within a group.
  function shownAs() {
    return {view: document.getElementById("deck-view").value, group: document.getElementById("deck-group").value,
            sort: document.getElementById("deck-sort").value};
  }

  // What finds a link of the view, grouping or sorting switches in a new panel, shown in `view`.
  function switchKey(link, view) {
    var key = 'a[data-view="' + CSS.escape(view) + '"]';
    ["group", "sort"].forEach(function (name) {
      var value = link.dataset[name];
      key += value === undefined ? ":not([data-" + name + "])" : "[data-" + name + '="' + CSS.escape(value) + '"]';
    });
    return key;
  }

  // The panel as saved, in the view on screen (the list or the piles, and their grouping). A save in flight when
  // it answers brings its own panel, asked again if the view changed meanwhile; `then` runs once it is shown.
  function refreshPanel(state, notice, then) {
    var params = new URLSearchParams(shownAs());
    var odds = document.getElementById("odds-form"), asked = currentView();
    if (odds) { new FormData(odds).forEach(function (value, key) { params.append(key, value); }); }
    fetch(editor.dataset.panelUrl + "?" + params, {credentials: "same-origin", headers: {"HX-Request": "true"}})
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var fresh = parsePanel(html);
        if (fresh && !queue.length && !sending && currentView() !== asked) {
          refreshPanel(state, notice, then);
          return;
        }
        if (fresh && !queue.length && !sending) {
          replacePanel(fresh);
          if (then) { then(); }
        }
        if (state) { setStatus(state, notice); }
      })
      .catch(function () { if (state) { setStatus(state, notice); } });
  }

  // The list and piles switch, and the piles' groupings: the view is kept on the page, so a save on its way
  // when the player switches does not bring the old view back (its panel is asked again in the new one).
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("#panel a[data-view]");
    if (!link || !editor || event.ctrlKey || event.metaKey || event.shiftKey) { return; }
    event.preventDefault();
    // A grouping or sorting link keeps the view on screen (it may carry the one of a panel not yet replaced); List
    // and Piles keep the grouping and the order.
    if (link.dataset.group) {
      document.getElementById("deck-group").value = link.dataset.group;
    } else if (link.dataset.sort) {
      document.getElementById("deck-sort").value = link.dataset.sort;
    } else {
      document.getElementById("deck-view").value = link.dataset.view;
    }
    // The address says all three, so a reload or a shared link opens the deck as the player chose to see it.
    history.replaceState(history.state, "", "?" + new URLSearchParams(shownAs()));
    var chosen = "#panel " + switchKey(link, document.getElementById("deck-view").value);
    if (!queue.length && !sending) {
      refreshPanel(null, null, function () {
        var again = document.querySelector(chosen);
        if (again) { again.focus(); }
      });
    }
  });

  // An answer that is not a panel is the site's error page (a NUL character, a body too large, too many saves):
  // its words say what was wrong.
  function refusal(html, status) {
    var template = document.createElement("template");
    template.innerHTML = html;
    var words = template.content.querySelector("main p");
    return "Not saved: " + (words && words.textContent.trim() ||
                            "the server answered " + status + "; reload the page.");
  }

  function parsePanel(html) {
    var template = document.createElement("template");
    template.innerHTML = html;
    return template.content.querySelector("#panel");
  }

  // The saved counts of a panel not shown yet (more changes are in flight): kept on the rows on screen.
  function adoptCounts(fresh) {
    var counts = {};
    fresh.querySelectorAll(DECK_ROWS).forEach(function (li) { counts[li.dataset.card] = li.dataset.count; });
    panel().querySelectorAll(DECK_ROWS).forEach(function (li) {
      li.dataset.count = counts[li.dataset.card] || "0";
    });
    document.querySelectorAll(".in-deck[data-card]").forEach(function (span) {
      span.dataset.saved = counts[span.dataset.card] || "0";
    });
  }

  // While the panel is replaced, a field leaving with it is not the player leaving it: its text is not saved then
  // (it is carried into the new panel).
  var swapping = false;

  function replacePanel(fresh) {
    var old = panel();
    var focused = document.activeElement, key = null, places = [], typing = null;
    if (focused && old.contains(focused)) {
      key = focused.id ? "#" + focused.id : focusKey(focused);
      for (var up = focused.parentElement; up && up !== old; up = up.parentElement) {
        if (up.id) { places.push("#" + CSS.escape(up.id)); }
      }
      if (isTextField(focused)) {
        typing = {value: focused.value, start: focused.selectionStart, end: focused.selectionEnd,
                  unsaved: focused.dataset.unsaved, typed: focused.value !== focused.defaultValue};
      }
    }
    // A menu's choice still waiting to be saved (SETTLE_MS) stays on screen, not the saved one the panel shows.
    var choosing = {};
    old.querySelectorAll("#deck-meta select[data-unsaved]").forEach(function (menu) { choosing[menu.id] = menu.value; });
    swapping = true;
    try { old.replaceWith(fresh); } finally { swapping = false; }
    if (editor.classList.contains("search-open")) { fresh.inert = true; }  // still under the phone's search
    Object.keys(choosing).forEach(function (id) {
      var menu = fresh.querySelector("#" + CSS.escape(id));
      if (menu) { menu.value = choosing[id]; menu.dataset.unsaved = "true"; }
    });
    var title = fresh.querySelector("#deck-title");  // a rename shows in the browser's tab too
    if (title) { document.title = "Edit " + title.textContent.trim() + " · Dreadgate"; }
    // A phone's bar says whether the deck is legal, which its legality says far down the page.
    var badge = fresh.querySelector("#legality .badge"), bar = document.getElementById("bar-legality");
    if (badge && bar) { bar.textContent = badge.dataset.short; bar.dataset.legal = badge.dataset.legal; }
    // Said once when it changes, by a region that stays (the panel's own is replaced whole at every save, and a
    // region put in anew is seldom read, or read whole with its advice).
    var said = document.getElementById("legality-said");
    if (badge && said && said.dataset.was !== badge.textContent.trim()) {
      said.textContent = said.dataset.was = badge.textContent.trim();
    }
    if (window.htmx) { window.htmx.process(fresh); }
    savedVersion = Number(fresh.dataset.version);  // what the page shows is what its next change is made against
    var counts = {};
    fresh.querySelectorAll(DECK_ROWS).forEach(function (li) { counts[li.dataset.card] = li.dataset.count; });
    document.querySelectorAll(".in-deck[data-card]").forEach(function (span) {
      span.dataset.saved = counts[span.dataset.card] || "0";
      span.textContent = span.dataset.saved;
    });
    if (key || places.length) {
      // The control pressed, or, when it is gone with its card (the last copy removed, a card moved into the
      // deck), the nearest part of the panel it was in that is still there: the keyboard keeps its place.
      var again = key && fresh.querySelector(key);
      for (var i = 0; !again && i < places.length; i++) { again = fresh.querySelector(places[i]); }
      again = again || fresh.querySelector("#deck-title");
      if (again) {
        if (again.tabIndex < 0 && !again.hasAttribute("tabindex")) { again.setAttribute("tabindex", "-1"); }
        again.focus();
        if (typing && again.id === focused.id && isTextField(again)) { carryTyping(again, typing); }
      }
    }
    showPending();
    document.dispatchEvent(new Event("deck-panel-shown"));  // for what keeps a state of its own in it (choose.js)
  }

  function isTextField(element) {
    return element.matches("textarea, input[type=text], input[type=number], input[type=search]");
  }

  // What the player was typing in a field the panel replaced: the same text and caret in the new field, and left
  // unsaved (saved when the player leaves the box) if it differs from what was saved. A field holding what its panel
  // showed was not being typed in: the new panel's value stands (an undo made from a count box shows its count).
  function carryTyping(field, typing) {
    if (typing.unsaved || (typing.typed && field.value !== typing.value)) {
      field.value = typing.value;
      field.dataset.unsaved = "true";
    }
    try { field.setSelectionRange(typing.start, typing.end); } catch (e) { /* a number box has no caret to set */ }
  }

  // What finds the same control in a new panel: its card and what it does, within the same list (the deck's
  // rows and the considering list both have buttons for a card).
  function focusKey(element) {
    if (element.dataset && element.dataset.view) { return switchKey(element, element.dataset.view); }
    if (!element.dataset || !element.dataset.card) { return null; }
    var key = element.tagName.toLowerCase() + '[data-card="' + CSS.escape(element.dataset.card) + '"]' +
      (element.type === "checkbox" ? "[type=checkbox]" : ":not([type=checkbox])");  // a row's choice, or its count
    ["delta", "consider", "to"].forEach(function (name) {
      var value = element.dataset[name];
      key += value === undefined ? ":not([data-" + name + "])" : "[data-" + name + '="' + CSS.escape(value) + '"]';
    });
    return (element.closest("#considering") ? "#considering " : "") + key;
  }

  // A card's count once the changes on their way are saved, as the server takes them: one after another, each
  // refused (the count kept) that would take it below none or past the copies the format allows (DC-4, DC-5),
  // unless it was saved past them; a count typed sets it; a move to or from the considering list takes or adds
  // its copies. (Summed and bounded once, "+ −" at the limit showed the limit until both were saved, and "− − +"
  // at one showed none.)
  function pendingSteps() {
    var steps = {};
    queue.forEach(function (change) {
      var fields = change.fields, card = fields && fields.card, step = null;
      if (!card) { return; }
      if (change.url === editor.dataset.changeUrl && fields.delta !== undefined) {
        step = {add: Number(fields.delta)};
      } else if (change.url === editor.dataset.changeUrl && fields.count !== undefined) {
        step = {set: Number(fields.count)};
      } else if (change.url === editor.dataset.moveUrl) {
        step = {add: (fields.to === "considering" ? -1 : 1) * Number(fields.count || 1)};
      }
      if (step) { (steps[card] = steps[card] || []).push(step); }
    });
    return steps;
  }

  function afterSteps(saved, most, steps) {
    return (steps || []).reduce(function (count, step) {
      var next = step.set !== undefined ? step.set : count + step.add;
      return next < 0 || next > count && next > most ? count : next;
    }, saved);
  }

  function copiesAllowed(element) {
    var limits = panel().dataset;
    return Number(element.dataset.unique !== undefined ? limits.uniqueLimit : limits.copyLimit) || Infinity;
  }

  // Counts on screen: as they will be saved, marked while pending.
  function showPending() {
    var pending = pendingSteps();
    panel().querySelectorAll(DECK_ROWS).forEach(function (li) {
      var shown = afterSteps(Number(li.dataset.count), copiesAllowed(li), pending[li.dataset.card]);
      var input = li.querySelector("input.count");
      if (input && document.activeElement !== input) { input.value = String(shown); }
      var copies = li.querySelector(".copies");
      if (copies) { copies.textContent = shown + "× " + li.dataset.name; }
      var badge = li.querySelector(".count-badge");  // a pile's face: its count as the list's box shows it
      if (badge) { badge.textContent = "×" + shown; }
      li.classList.toggle("pending", Boolean(pending[li.dataset.card]));
    });
    document.querySelectorAll(".in-deck[data-card]").forEach(function (span) {
      var saved = Number(span.dataset.saved || span.textContent);
      span.dataset.saved = String(saved);
      var steps = pending[span.dataset.card];
      span.textContent = steps ? afterSteps(saved, copiesAllowed(span), steps) + " (saving)" : String(saved);
    });
    // A menu's choice on its way stays on screen while the panel of a save before it shows the saved one.
    queue.forEach(function (change) {
      var menu = change.detail && document.getElementById(change.detail);
      if (menu && menu.tagName === "SELECT" && !menu.dataset.unsaved) { menu.value = change.fields[menu.name]; }
    });
    if (queue.length) { setStatus("pending", "Saving " + plural(queue.length, "change") + "…"); }
    var waiting = queue.some(function (change) { return change.deferred === undefined && !change.fromHistory; });
    var undoButton = document.getElementById("undo"), redoButton = document.getElementById("redo");
    undoButton.disabled = !undoStack.length && !waiting;
    redoButton.disabled = !redoStack.length;
    // A button that disabled itself as it was pressed drops the keyboard's focus to the page: it goes to the other
    // one once that is enabled (redo, when the undo's save answers), or to the search when nothing is on its way.
    var pressed = [undoButton, redoButton].filter(function (b) { return b.dataset.pressed; });
    var active = document.activeElement;  // a button just disabled keeps it until the browser moves it to the page
    var lost = !active || active === document.body || pressed.indexOf(active) >= 0 && active.disabled;
    if (pressed.length && lost) {
      var next = [undoButton, redoButton].filter(function (b) { return !b.disabled; })[0]
        || (queue.length ? null : document.getElementById("q"));
      if (!next) { return; }  // the answer that enables one is on its way
      next.focus();
    }
    pressed.forEach(function (b) { delete b.dataset.pressed; });
  }

  function setStatus(state, text) {
    statusEl.dataset.state = state;
    statusEl.dataset.queue = String(queue.length);
    // While changes are on their way the count changes at every press and answer: the status is busy then, and
    // read once it says how they ended.
    statusEl.setAttribute("aria-busy", state === "pending" ? "true" : "false");
    statusEl.textContent = text;
  }

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  // --- what the controls send ------------------------------------------------------------------------------

  function cardChange(card, delta) {
    return {url: editor.dataset.changeUrl, card: card, delta: delta, fields: {card: card, delta: String(delta)}};
  }

  function lines(text, onDone) {
    return {url: editor.dataset.quickUrl, fields: {lines: text}, onDone: onDone};
  }

  // Undo and redo: each save answers with the requests that take it back (data-changes on the panel); undo sends
  // those of this page's last save, redo those of the last undo's save. Each is a new version.
  var URLS = {quick: "quickUrl", tag: "tagUrl", consider: "considerUrl", move: "moveUrl", change: "changeUrl"};

  // An undo or redo of several requests (a tagged card's removal is taken back by its count, then its tag) is one
  // step: what takes back each of its saves goes on the other stack together, once the last has answered, so that
  // one press takes back or replays all of it.
  function record(change, inverse) {
    var step = change.step;
    if (step) {
      step.inverse = inverse.concat(step.inverse);  // the last save is taken back first
      step.left -= 1;
      if (step.left) { return; }
      inverse = step.inverse;
    }
    if (!inverse.length) { return; }
    if (change.history === "undo") { redoStack.push(inverse); } else { undoStack.push(inverse); }
  }

  function requests(inverse, direction) {
    var step = {inverse: [], left: inverse.length};
    return inverse.map(function (request) {
      var fields = Object.assign({save: newKey()}, request.fields);
      return {url: editor.dataset[URLS[request.url]], fields: fields, fromHistory: true, history: direction,
              needsVersion: Boolean(request.versioned), step: step};
    });
  }

  function replay(inverse, direction) {
    queue.push.apply(queue, requests(inverse, direction));
    showPending();
    pump();
  }

  // Pressed while changes are saving, undo and redo wait their turn in the queue: the change they take back is
  // on the stack only once its save has answered.
  function undo() { if (queue.length) { enqueue({deferred: "undo"}); } else if (undoStack.length) { replay(undoStack.pop(), "undo"); } }
  function redo() { if (queue.length) { enqueue({deferred: "redo"}); } else if (redoStack.length) { replay(redoStack.pop(), "redo"); } }

  document.addEventListener("click", function (event) {
    if (!editor) { return; }
    var button = event.target.closest("button[data-delta][data-card]");
    if (button && editor.contains(button)) {
      event.preventDefault();
      enqueue(cardChange(button.dataset.card, Number(button.dataset.delta)));
      return;
    }
    var suggestion = event.target.closest("button.suggestion");
    if (suggestion) { useSuggestion(Number(suggestion.dataset.line), suggestion.dataset.name); return; }
    if (event.target.id === "undo" || event.target.id === "redo") { event.target.dataset.pressed = "true"; }
    if (event.target.id === "undo") { undo(); } else if (event.target.id === "redo") { redo(); }
    if (event.target.id === "open-search") { openSearch(true); } else if (event.target.id === "close-search") { openSearch(false); }
    if (event.target.closest("#bar-legality") && editor.classList.contains("search-open")) {
      // On a phone the bar's legality lies over the open search: it goes to the legality under it, as the jump does.
      event.preventDefault();
      openSearch(false);
      var legality = document.getElementById("legality");
      if (!legality.hasAttribute("tabindex")) { legality.setAttribute("tabindex", "-1"); }
      legality.focus();
      legality.scrollIntoView({block: "start"});
      return;
    }
    if (event.target.closest("a.jump[href='#panel']")) {
      // On a phone the search lies over the deck: going to the deck closes it, and the deck takes the focus.
      event.preventDefault();
      openSearch(false);
      var deck = panel();
      if (!deck.hasAttribute("tabindex")) { deck.setAttribute("tabindex", "-1"); }
      deck.focus();
      deck.scrollIntoView({block: "start"});
    }
  });

  // A menu of the details (format, visibility) changes with each arrow key pressed on it: the choice is saved once
  // the arrows rest a moment, or the menu is left, so that Private, Unlisted, Public is one save, not a deck shared
  // on the way (a pick with the pointer is saved after the same moment).
  // The menu is found again by its id when the moment is up: a save meanwhile may have replaced the panel (the
  // choice is carried into the new one), and a page left meanwhile saves it at once.
  var SETTLE_MS = 700, settling = null, settlingId = null;

  document.addEventListener("change", function (event) {
    if (!editor || swapping || !panel().contains(event.target)) { return; }
    var target = event.target;
    if (target.matches("#deck-meta select")) {
      target.dataset.unsaved = "true";
      clearTimeout(settling);
      settlingId = target.id;
      settling = setTimeout(settle, SETTLE_MS);
      setStatus("pending", "Saving the " + (target.labels && target.labels[0] ? target.labels[0].textContent.trim()
                                                                             : target.name).toLowerCase() + "…");
      return;
    }
    commit(target);
  });

  function settle() {
    clearTimeout(settling);
    var menu = settlingId && document.getElementById(settlingId);
    settling = settlingId = null;
    if (menu && menu.dataset.unsaved) { commit(menu); }
  }

  // A count box or a field of the deck's details, once the player has changed it and left it.
  function commit(target) {
    if (target.matches("input.count[data-card]")) {
      delete target.dataset.unsaved;
      var count = target.value.trim();
      if (!/^\d+$/.test(count)) {
        // A number box holds "" for what it cannot read ("abc"): said so, not as an empty count.
        setStatus("failed", "A count is a whole number from 0 up; " + (target.validity && target.validity.badInput ?
                  "what was typed is not one" : "“" + count + "” is not one") + ", and was not saved.");
        showPending();  // puts the count on screen back
        return;
      }
      var card = target.dataset.card;
      enqueue({url: editor.dataset.changeUrl, needsVersion: true, fields: {card: card, count: count},
               onShown: function (status) {
                 // Refused as stale (another window saved first): the count typed stays in its box, as a name does,
                 // and leaving the box saves it over the version now shown.
                 if (status !== 409) { return; }
                 var again = panel().querySelector(DECK_ROWS.replace("li[data-card]", 'li[data-card="' +
                                                   CSS.escape(card) + '"]') + " input.count");
                 if (!again) { return; }
                 again.value = count;
                 again.dataset.unsaved = "true";
                 again.setAttribute("aria-invalid", "true");
                 again.setAttribute("aria-describedby", "queue-status");  // the status says why
                 setStatus("failed", statusEl.textContent + " Your count is kept in its box: leave the box again " +
                                     "to save it.");
               }});
    } else if (target.closest("#deck-meta")) {
      sendDetail(target);
    }
  }

  // The deck's name, format, visibility or description, against the version the page showed. Refused (another
  // window saved first), the text typed stays in its box, marked, and leaving the box saves it over that version.
  function sendDetail(field) {
    var fields = {}, typed = field.value;
    fields[field.name] = typed;
    delete field.dataset.unsaved;
    function keepRefused(status) {
      if (status === 200) { return; }
      var again = document.getElementById(field.id);
      if (!again) { return; }
      again.value = typed;
      again.dataset.unsaved = "true";
      again.setAttribute("aria-invalid", "true");
      again.setAttribute("aria-describedby", "queue-status");  // the status says why
      // Overtaken by another window's save, the same text saves when sent again; refused for itself, it must change.
      setStatus("failed", statusEl.textContent + (status === 409
        ? " Your text is kept in its box: leave the box again to save it."
        : " Your text is kept in its box: change it, then leave the box to save it."));
    }
    enqueue({url: editor.dataset.changeUrl, needsVersion: true, fields: fields, detail: field.id,
             onShown: keepRefused});
  }


  // A field left with text the player has not saved yet: refused before, or carried over a replaced panel.
  document.addEventListener("focusout", function (event) {
    var field = event.target;
    if (editor && !swapping && field.dataset && field.dataset.unsaved && panel().contains(field)) {
      commit(field);
    }
  });

  // A phone's search panel, over the deck.
  function openSearch(open) {
    editor.classList.toggle("search-open", open);
    coverBehindSearch();
    document.getElementById("open-search").setAttribute("aria-expanded", open ? "true" : "false");
    if (open) { document.getElementById("quick").focus(); } else { document.getElementById("open-search").focus(); }
  }

  // What the open search covers (the deck, the page's header and the rest) is inert: Tab stays in the search and
  // its bar, and a screen reader does not read what lies under it (the focus went to the deck's name, unseen).
  // Applied again when a save replaces the deck's panel while the search is open.
  function coverBehindSearch() {
    var open = editor.classList.contains("search-open");
    var kept = [document.getElementById("editor-search"), document.querySelector(".editor-bar")];
    (function cover(node) {
      Array.prototype.forEach.call(node.children, function (child) {
        if (kept.indexOf(child) >= 0 || child.tagName === "SCRIPT") { return; }
        if (kept.some(function (k) { return k && child.contains(k); })) { cover(child); } else { child.inert = open; }
      });
    })(document.body);
  }

  // --- keys ------------------------------------------------------------------------------------------------

  // Whether Ctrl+Z in `element` is the box's own undo of what is typed there rather than the page's undo of a save:
  // in a text box, and in a count box while what it holds is not the count saved. A menu has no undo of its own,
  // and a count saved by Enter keeps the focus in its box: there Ctrl+Z takes the save back, as the Undo button says.
  function ownUndo(element) {
    var tag = (element.tagName || "").toLowerCase();
    if (tag === "textarea") { return true; }
    if (tag !== "input") { return false; }
    if (element.type === "number") { return element.value !== element.defaultValue; }
    return ["checkbox", "radio", "button", "submit", "reset"].indexOf(element.type) < 0;
  }

  document.addEventListener("keydown", function (event) {
    if (!editor || (event.target.closest && event.target.closest("dialog"))) { return; }  // the dialog's own keys
    var q = document.getElementById("q");
    var tag = (event.target.tagName || "").toLowerCase();
    var typing = tag === "input" || tag === "textarea" || tag === "select";
    if (event.key === "Escape" && editor.classList.contains("search-open") && !options.length) {
      openSearch(false);
      return;
    }
    if (event.key === "?" && !typing) {
      event.preventDefault();
      showKeys();
      return;
    }
    if (event.key === "/" && !typing) {
      event.preventDefault();
      if (getComputedStyle(document.getElementById("editor-search")).display === "none") { openSearch(true); }
      q.focus();
      q.select();
      return;
    }
    if ((event.ctrlKey || event.metaKey) && !ownUndo(event.target) &&
        (event.key === "z" || event.key === "Z" || event.key === "y")) {
      event.preventDefault();
      if (tag === "select") { settle(); }  // a choice still settling is saved first, then taken back
      if (event.key === "y" || event.shiftKey) { redo(); } else { undo(); }
      return;
    }
    if (event.target === q && event.key === "Enter") {
      // The first result of the query as typed: the server runs the query, whatever the results show yet. The
      // query is selected, so the next name typed replaces it (and Enter again adds another copy).
      event.preventDefault();
      var query = q.value.trim();
      if (query) {
        var change = {url: editor.dataset.changeUrl, fields: {first_of: query, delta: "1"}};
        enqueue(change);
        q.select();
      }
    } else if (event.target === q && event.key === "ArrowDown") {
      var first = document.querySelector("#results button.add-card");
      if (first) {
        event.preventDefault();
        first.focus();
      }
    } else if ((event.key === "ArrowDown" || event.key === "ArrowUp") && event.target.closest &&
               event.target.closest("#results li") && event.target.matches("button")) {
      // Through the results, row by row, on the same button ("Add" or "Consider"); up from the first, the box.
      var row = event.target.closest("li");
      var next = event.key === "ArrowDown" ? row.nextElementSibling : row.previousElementSibling;
      var same = next && next.querySelector("button." + event.target.classList[event.target.classList.length - 1]);
      event.preventDefault();
      if (same) { same.focus(); } else if (event.key === "ArrowUp") { q.focus(); }
    }
  });

  // --- quick add, with names offered as you type ------------------------------------------------------------

  var COUNT_PREFIX = /^([+-]?\d+\s*[x×]?\s+)?(.*)$/i;
  var suggestTimer = null, options = [], active = -1, asked = 0;  // asked: only the latest question's answer shows

  function quickBox() { return document.getElementById("quick"); }

  function currentLine(box) {
    var start = box.value.lastIndexOf("\n", box.selectionStart - 1) + 1;
    var end = box.value.indexOf("\n", box.selectionStart);
    return {start: start, end: end === -1 ? box.value.length : end};
  }

  function lineName(box, line) {
    return COUNT_PREFIX.exec(box.value.slice(line.start, line.end))[2].trim();
  }

  // The names offered for `name`: then(names), [] when none could be had.
  function namesFor(name, then) {
    fetch(editor.dataset.autocompleteUrl + "?q=" + encodeURIComponent(name),
          {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (r) { return r.ok ? r.json() : {results: []}; })
      .then(function (data) { then(data.results.slice(0, 8)); })
      .catch(function () { then([]); });
  }

  function offerNames() {
    var box = quickBox(), name = lineName(box, currentLine(box));
    if (name.length < 2) { closeOptions(); return; }
    var question = ++asked;
    namesFor(name, function (names) {
      if (question !== asked) { return; }
      showOptions(names);
      document.getElementById("quick-options").dataset.answered = name;  // which text the names answer
    });
  }

  function showOptions(names) {
    var list = document.getElementById("quick-options"), box = quickBox();
    options = names;
    active = names.length ? 0 : -1;
    list.textContent = "";
    names.forEach(function (name, i) {
      var li = document.createElement("li");
      li.id = "quick-option-" + i;
      li.setAttribute("role", "option");
      li.textContent = name;
      li.addEventListener("mousedown", function (event) { event.preventDefault(); pick(i); });
      list.appendChild(li);
    });
    list.hidden = !names.length;
    highlight();
    // Said once as they come: that Enter now takes a name, not the line; the arrows' moves say each name.
    say(names.length ? plural(names.length, "name") + " offered: Enter adds " + names[0] + "; ↓ ↑ choose another."
                     : "");
  }

  function say(words) {
    var said = document.getElementById("quick-said");
    if (said && said.textContent !== words) { said.textContent = words; }
  }

  function highlight() {
    var box = quickBox();
    document.querySelectorAll("#quick-options [role=option]").forEach(function (li, i) {
      li.setAttribute("aria-selected", i === active ? "true" : "false");
    });
    if (active >= 0) { box.setAttribute("aria-activedescendant", "quick-option-" + active); }
    else { box.removeAttribute("aria-activedescendant"); }
  }

  function closeOptions() {
    asked++;  // an answer still on its way is no longer wanted
    options = [];
    active = -1;
    var list = document.getElementById("quick-options");
    if (list) { list.hidden = true; list.textContent = ""; }
    var box = quickBox();
    if (box) { box.removeAttribute("aria-activedescendant"); }
    say("");
  }

  function pick(i) {
    var box = quickBox(), line = currentLine(box);
    var prefix = COUNT_PREFIX.exec(box.value.slice(line.start, line.end))[1] || "";
    var text = prefix + options[i];
    box.value = box.value.slice(0, line.start) + text + box.value.slice(line.end);
    box.selectionStart = box.selectionEnd = line.start + text.length;
    closeOptions();
  }

  function alreadyTyped(name) {
    var box = quickBox(), line = currentLine(box);
    return COUNT_PREFIX.exec(box.value.slice(line.start, line.end))[2].trim().toLowerCase() === name.toLowerCase();
  }

  function useSuggestion(lineNumber, name) {
    var box = quickBox(), rows = box.value.split("\n");
    if (lineNumber < 1 || lineNumber > rows.length) { return; }
    var prefix = COUNT_PREFIX.exec(rows[lineNumber - 1].trim())[1] || "";
    rows[lineNumber - 1] = prefix + name;
    box.value = rows.join("\n");
    // The line's problem is answered: it goes, and the list of problems with its last one.
    var said = '#quick-problems li[data-line="' + lineNumber + '"], .quick-problems li[data-line="' + lineNumber + '"]';
    document.querySelectorAll(said).forEach(function (item) {
      var list = item.parentElement;
      item.remove();
      if (list.tagName === "UL" && !list.children.length) { list.remove(); }
    });
    box.focus();
  }

  function submitQuick() {
    var box = quickBox(), text = box.value;
    document.getElementById("quick-problems").textContent = "";
    if (!text.trim()) { return; }
    closeOptions();
    var oversize = tooLarge({lines: text});
    if (oversize) {  // the server would not read it: said here, the text kept
      quickProblem(oversize);
      return;
    }
    box.value = "";  // typing ahead while the lines are saved; they come back if they are refused
    enqueue(quickLines(text));
  }

  // Enter on a line whose names are not offered yet (typed faster than they come): the box is emptied at once for
  // the next line, as when they are, and the lines are sent in their turn once the names for the line have come,
  // the line naming the first of them, as Enter with them offered would (a name typed whole stays as typed; none
  // offered: as typed, for the server to say what it could be).
  function submitQuickOnceNamed(box, line) {
    var text = box.value, typed = lineName(box, line);
    var prefix = COUNT_PREFIX.exec(text.slice(line.start, line.end))[1] || "";
    document.getElementById("quick-problems").textContent = "";
    closeOptions();
    if (tooLarge({lines: text})) { submitQuick(); return; }  // said, and kept, as any line too large is
    box.value = "";
    var change = quickLines(text);
    change.prepare = function (then) {
      namesFor(typed, function (names) {
        var whole = names.some(function (name) { return name.toLowerCase() === typed.toLowerCase(); });
        var name = names.length && !whole ? names[0] : typed;
        change.fields.lines = text.slice(0, line.start) + prefix + name + text.slice(line.end);
        then();
      });
    };
    enqueue(change);
  }

  // The lines of the quick-add box as a change; refused, they come back to the box (before what was typed since),
  // each line's problem said on its line.
  function quickLines(text) {
    var box = quickBox(), change = lines(text, function (status, fresh, refused) {
      var problems = document.getElementById("quick-problems"), listed = fresh && fresh.querySelector(".quick-problems");
      problems.textContent = "";
      if (status === 200) { return; }
      box.value = change.fields.lines + (box.value ? "\n" + box.value : "");
      if (listed) {
        problems.appendChild(listed);  // each line's problem, on its line; the box keeps the text
      } else {
        quickProblem(fresh ? fresh.querySelector("#save-status").textContent.trim() : refused);
      }
    });
    return change;
  }

  function quickProblem(words) {
    var p = document.createElement("p");
    p.className = "issue issue-error";
    p.textContent = words;
    document.getElementById("quick-problems").appendChild(p);
  }

  // A save whose body the server would refuse unread (over its size limit): the words that say so, else "".
  function tooLarge(fields) {
    var limit = Number(editor.dataset.bodyLimit), size = new URLSearchParams(fields).toString().length;
    if (!limit || size <= limit) { return ""; }
    return "Nothing was saved: this text is " + size.toLocaleString("en") + " bytes as sent, and a save takes " +
           "at most " + limit.toLocaleString("en") + ".";
  }

  document.addEventListener("input", function (event) {
    if (event.target.id !== "quick") { return; }
    closeOptions();  // the names offered answered the text before this key: Enter must not pick from them
    clearTimeout(suggestTimer);
    suggestTimer = setTimeout(offerNames, 120);
  });

  document.addEventListener("keydown", function (event) {
    if (event.target.id !== "quick") { return; }
    if ((event.key === "ArrowDown" || event.key === "ArrowUp") && options.length) {
      event.preventDefault();
      active = (active + (event.key === "ArrowDown" ? 1 : -1) + options.length) % options.length;
      highlight();
      say(options[active] + ", " + (active + 1) + " of " + options.length);
    } else if (event.key === "Escape" && options.length) {
      event.preventDefault();
      closeOptions();
    } else if (event.key === "Enter" && !event.shiftKey) {
      // One Enter adds the line, with the name offered first (or chosen by the arrows) in place of the text typed.
      event.preventDefault();
      clearTimeout(suggestTimer);
      var box = quickBox(), line = currentLine(box), typed = lineName(box, line);
      if (options.length && active >= 0) {
        if (!alreadyTyped(options[active])) { pick(active); }
        submitQuick();
      } else if (typed.length >= 2 && document.getElementById("quick-options").dataset.answered !== typed) {
        submitQuickOnceNamed(box, line);
      } else {
        submitQuick();
      }
    }
  });

  document.addEventListener("submit", function (event) {
    if (event.target.id === "quick-add") { event.preventDefault(); submitQuick(); }
    if (event.target.id === "deck-meta") { event.preventDefault(); }
  });

  // A page left (a reload confirmed) with a change on its way: the change may reach the server after the next page
  // has read the deck. The next page is told, and asks for the deck again a few times in its first seconds (a page
  // that was not left after all leaves the word for the next one, which asks once more for nothing).
  var LEFT_IN_FLIGHT = "deck-editor-left-in-flight:", RECHECK_MS = [1000, 3000, 6000];
  window.addEventListener("beforeunload", function (event) {
    if (settlingId) { settle(); }  // a menu's choice still waiting for its moment: on its way now, as the rest
    if (queue.length) {
      try { sessionStorage.setItem(LEFT_IN_FLIGHT + editor.dataset.changeUrl, "1"); } catch (e) { /* storage off */ }
      event.preventDefault();
      event.returnValue = "";
    }
  });

  // Undo and redo outlive a reload of the page in the same tab: the stacks are kept (sessionStorage) with the version
  // the deck had when the page was left, and taken up again only if the deck is still at that version, so that no
  // takeback is sent over a save they were not made for (another window's, or a change still on its way then).
  var HISTORY = "deck-editor-history:";
  window.addEventListener("pagehide", function () {
    try {
      sessionStorage.setItem(HISTORY + editor.dataset.changeUrl,
                             JSON.stringify({version: savedVersion, undo: undoStack, redo: redoStack}));
    } catch (e) { /* storage off: the page's own history only */ }
  });

  function takeUpHistory() {
    var key = HISTORY + editor.dataset.changeUrl;
    try {
      var kept = JSON.parse(sessionStorage.getItem(key) || "null");
      sessionStorage.removeItem(key);
      if (kept && kept.version === savedVersion && Array.isArray(kept.undo) && Array.isArray(kept.redo)) {
        undoStack = kept.undo;
        redoStack = kept.redo;
        showPending();  // the buttons as the stacks now allow
      }
    } catch (e) { /* storage off, or not ours */ }
  }

  function changesLeftInFlight() {
    var key = LEFT_IN_FLIGHT + editor.dataset.changeUrl;
    try {
      var left = sessionStorage.getItem(key);
      sessionStorage.removeItem(key);
      return Boolean(left);
    } catch (e) { return false; }
  }

  function recheck() {
    if (queue.length || sending) { return; }  // this page's own save brings the deck as it is
    var before = savedVersion;
    refreshPanel(null, null, function () {
      if (savedVersion === before) { return; }
      setStatus("saved", "A change sent before the page was reloaded was saved after it: the deck is shown as " +
                         "it is now (version " + savedVersion + ").");
    });
  }

  // What the piles (static/decks/piles.js) send through the same queue.
  window.deckEditor = {
    change: function (card, delta) { enqueue(cardChange(card, delta)); },
    // onDone(status, panel, refused): once the save has answered, before its panel is shown; an answer that is not
    // a panel (the site's error page) comes as panel null and its words.
    send: function (url, fields, onDone) { enqueue({url: url, fields: fields, onDone: onDone}); },
    tooLarge: tooLarge,
    // then(): once every change made so far is saved (at once when none is waiting).
    whenSaved: function (then) {
      (function wait() { if (queue.length || sending) { setTimeout(wait, 100); } else { then(); } })();
    }
  };

  // "Show the cards' faces": the search's results as a grid of faces (decks.css), the choice kept for the next visit.
  var FACES = "deck-editor-faces";
  function showFaces(box) {
    document.getElementById("editor-search").classList.toggle("faces", box.checked);
  }

  function startFaces() {
    var box = document.getElementById("show-faces");
    if (!box) { return; }
    try { box.checked = localStorage.getItem(FACES) === "1"; } catch (e) { /* storage off: a list, as at first */ }
    showFaces(box);
    box.addEventListener("change", function () {
      showFaces(box);
      try { localStorage.setItem(FACES, box.checked ? "1" : "0"); } catch (e) { /* storage off: this page only */ }
    });
  }

  function start() {
    editor = document.getElementById("editor");
    if (!editor) { return; }
    startFaces();
    statusEl = document.getElementById("queue-status");
    savedVersion = Number(panel().dataset.version);
    if (changesLeftInFlight()) { RECHECK_MS.forEach(function (ms) { setTimeout(recheck, ms); }); }
    takeUpHistory();
    barHeight();
    // It grows as its status wraps (a save's notice), not only as the window changes.
    if (window.ResizeObserver) { new ResizeObserver(barHeight).observe(document.querySelector(".editor-bar")); }
    window.addEventListener("resize", barHeight);
    var badge = document.querySelector("#legality .badge"), said = document.getElementById("legality-said");
    if (badge && said) { said.dataset.was = badge.textContent.trim(); }  // as the page showed it: nothing to say
    editor.dataset.ready = "true";
  }

  // The sticky bar's height, which wraps to several lines on a phone and as its status grows: whatever the page
  // scrolls to (a card the legality's "Find it in the deck" names, a field the keyboard reaches going up) stops
  // below it (decks.css), not under it.
  function barHeight() {
    var bar = document.querySelector(".editor-bar");
    if (bar) { document.documentElement.style.setProperty("--editor-bar", bar.offsetHeight + "px"); }
  }

  // "Keys" (and ?): the editor's keys, in a dialog; closing it puts the keyboard back where it was.
  function showKeys() {
    var dialog = document.getElementById("keys-dialog");
    if (dialog && !dialog.open) { dialog.showModal(); }
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("#show-keys")) { showKeys(); }
  });

  // "Find it in the deck": the page scrolls to the card's row (below the bar), and the keyboard is put there too,
  // the row marked (decks.css, :target), so that the next Tab reaches its buttons and a screen reader reads it.
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest('a[href^="#deck-card-"]');
    var row = link && document.getElementById(link.getAttribute("href").slice(1));
    if (!row) { return; }
    setTimeout(function () {  // after the browser has scrolled to it
      if (!row.hasAttribute("tabindex")) { row.setAttribute("tabindex", "-1"); }
      row.focus({preventScroll: true});
    }, 0);
  });

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
