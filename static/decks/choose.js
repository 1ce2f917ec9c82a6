// Several cards of the deck chosen together, in the editor's list or piles, then tagged, set aside or removed at once
// ("Choose several cards"). Removing, setting aside and tagging are one save each: one version, one undo. The
// choice outlives the panel's swaps after each save: it is kept here and shown again on every new panel, less the
// cards no longer in the deck.
(function () {
  "use strict";

  var chosen = new Set(), choosing = false;

  function editor() { return document.getElementById("editor"); }
  function row(card) {
    return document.querySelector('#deck-list li[data-card="' + CSS.escape(card) + '"]');
  }

  function show() {
    var toggle = document.getElementById("choose-several"), bar = document.getElementById("bulk-actions");
    if (!editor() || !bar) { return; }
    var on = choosing && Boolean(toggle);
    if (toggle) { toggle.checked = choosing; }
    editor().classList.toggle("choosing", on);
    var present = new Set();
    document.querySelectorAll("#deck-list input.pick").forEach(function (box) {
      present.add(box.dataset.card);
      box.checked = chosen.has(box.dataset.card);
    });
    chosen.forEach(function (card) { if (!present.has(card)) { chosen.delete(card); } });
    bar.hidden = !on;
    var n = chosen.size;
    document.getElementById("bulk-count").textContent =
      n ? n + (n === 1 ? " card chosen" : " cards chosen") : "No card chosen";
    bar.querySelectorAll("button:not(#bulk-clear)").forEach(function (button) { button.disabled = !n; });
  }

  function cards() {
    return Array.from(chosen).filter(function (card) { return row(card); });
  }

  // Each chosen card and its copies, as saved once the changes on their way are in: {card, count}.
  function withCounts(then) {
    window.deckEditor.whenSaved(function () {
      then(cards().map(function (card) { return {card: card, count: Number(row(card).dataset.count)}; }));
    });
  }

  function remove() {
    withCounts(function (picked) {
      var lines = picked.map(function (p) { return "-" + p.count + " " + p.card; });
      if (lines.length) { window.deckEditor.send(editor().dataset.quickUrl, {lines: lines.join("\n")}); }
    });
  }

  // Out of the main deck and onto the considering list, in the same save (DC-9: a considering section).
  function setAside() {
    withCounts(function (picked) {
      if (!picked.length) { return; }
      var out = picked.map(function (p) { return "-" + p.count + " " + p.card; });
      var aside = picked.map(function (p) { return p.count + " " + p.card; });
      window.deckEditor.send(editor().dataset.quickUrl, {lines: out.concat(["Considering:"], aside).join("\n")});
    });
  }

  function askTag() {
    var dialog = document.getElementById("tag-dialog"), picked = cards();
    if (!dialog || !picked.length) { return; }
    var tags = picked.map(function (card) { return row(card).querySelector("button[data-retag]").dataset.retag; });
    dialog.dataset.card = "";
    dialog.dataset.cards = picked.join(",");
    // the tag they share, if they do: else an empty box (untagging them all, if saved so)
    var shared = tags.every(function (tag) { return tag === tags[0]; });
    window.deckTagDialog(picked.length + " cards", shared ? tags[0] : "");
  }

  document.addEventListener("close", function (event) {
    var dialog = event.target;
    if (dialog.id !== "tag-dialog" || !dialog.dataset.cards) { return; }
    // dataset.cards stays until the dialog is opened for one card (piles.js), so that its own handler of this event,
    // whichever runs first, leaves this closing to this one
    var picked = dialog.dataset.cards.split(","), tag = dialog.querySelector("#tag-name").value.trim();
    document.getElementById("bulk-tag").focus();
    if (dialog.returnValue !== "save") { return; }
    var saves = picked.filter(function (card) { return row(card); }).map(function (card) {
      return {card: card, tag: tag, was: row(card).querySelector("button[data-retag]").dataset.retag};
    }).filter(function (save) { return save.was !== save.tag; });
    if (!saves.length) { return; }
    // One save, one version, one undo. A tag refused (too long, say, or changed meanwhile in another window) saves
    // none of them: it comes back in the dialog as typed, with the server's words, to be saved again.
    window.deckEditor.send(editor().dataset.tagUrl, {tags: JSON.stringify(saves)}, function (status, panel, refused) {
      if (status === 200) { return; }
      dialog.dataset.card = "";
      dialog.dataset.cards = picked.join(",");
      window.deckTagDialog(picked.length + " cards", tag,
                           panel ? panel.querySelector("#save-status").textContent.trim() : refused);
    });
  }, true);

  // Shift and a click on a box choose (or let go) every card from the box clicked before it to this one, in the
  // list's order, as a mail client's list does.
  var anchor = null;
  document.addEventListener("click", function (event) {
    var box = event.target;
    if (!box.classList || !box.classList.contains("pick")) { return; }
    var boxes = Array.from(document.querySelectorAll("#deck-list input.pick"));
    var from = anchor ? boxes.findIndex(function (b) { return b.dataset.card === anchor; }) : -1;
    var to = boxes.indexOf(box);
    if (event.shiftKey && from >= 0 && to >= 0) {
      boxes.slice(Math.min(from, to), Math.max(from, to) + 1).forEach(function (b) {
        if (box.checked) { chosen.add(b.dataset.card); } else { chosen.delete(b.dataset.card); }
      });
    }
    anchor = box.dataset.card;
  });

  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target.id === "choose-several") {
      choosing = target.checked;
      if (!choosing) { chosen.clear(); }
      show();
    } else if (target.classList && target.classList.contains("pick")) {
      if (target.checked) { chosen.add(target.dataset.card); } else { chosen.delete(target.dataset.card); }
      show();
    }
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#bulk-actions button");
    if (!button || button.disabled) { return; }
    if (button.id === "bulk-tag") { askTag(); }
    else if (button.id === "bulk-aside") { setAside(); }
    else if (button.id === "bulk-remove") { remove(); }
    else if (button.id === "bulk-clear") { chosen.clear(); show(); }
  });

  document.addEventListener("deck-panel-shown", show);
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", show); } else { show(); }
})();
