// The editor's piles: drag and drop, each with a keyboard path, sent through the editor's queue (window.deckEditor,
// static/decks/editor.js) so that nothing is lost or reordered.
//   - a search result dropped on the piles adds a copy (on a tag pile: and gives it that tag);
//   - a pile card dropped on "Remove" takes a copy away; dropped on another tag pile, changes its tag;
//   - a pile card dropped on the considering list moves a copy there;
//   - keys on a focused pile card: + and − add and remove a copy, C moves a copy to the considering list, T asks for
//     its tag; in tag piles, ← and → move it to the pile before or after;
//   - "Tag" on a list row or a pile card asks for its tag, in any view (the tag dialog, with the deck's tags offered).
(function () {
  "use strict";

  var TYPE = "application/x-dreadgate-card";

  function editor() { return document.getElementById("editor"); }
  function grouping() { var piles = document.getElementById("piles"); return piles ? piles.dataset.grouping : ""; }

  // Each tag is sent with the one the player saw on the card (`was`): the tag a change still on its way will set, else
  // the page's. A tag another window set meanwhile is then refused, said, and not written over.
  var tagsOnTheWay = {};

  function shownTag(card) {
    if (Object.prototype.hasOwnProperty.call(tagsOnTheWay, card)) { return tagsOnTheWay[card]; }
    var button = document.querySelector('#panel li[data-card="' + CSS.escape(card) + '"]:not(#considering li) ' +
                                        "button[data-retag]");
    return button ? button.dataset.retag : "";
  }

  function tag(card, name, onDone) {
    var was = shownTag(card);
    tagsOnTheWay[card] = name;
    window.deckEditor.send(editor().dataset.tagUrl, {card: card, tag: name, was: was}, function (status, panel, words) {
      if (tagsOnTheWay[card] === name) { delete tagsOnTheWay[card]; }
      if (onDone) { onDone(status, panel, words); }
    });
  }

  // The tag dialog (templates/decks/editor.html): the card's tag, the deck's other tags offered as it is typed.
  // `typed` and `refusal`: a tag the server refused, back in the box with its reason.
  function askTag(card, typed, refusal) {
    var dialog = document.getElementById("tag-dialog"), row = document.querySelector(
      '#panel li[data-card="' + CSS.escape(card) + '"]:not(#considering li)');
    if (!dialog || !row) { return; }
    var button = row.querySelector("button[data-retag]");
    dialog.dataset.card = card;
    delete dialog.dataset.cards;  // one card: not several chosen together (choose.js)
    var value = typed !== undefined ? typed : button ? button.dataset.retag : (currentPile(card) || "");
    openTagDialog(row.dataset.name, value, refusal);
  }

  // The dialog, for what it is asked of (`named`: "Tag <named>"), its box holding `value`, and a refusal said.
  function openTagDialog(named, value, refusal) {
    var dialog = document.getElementById("tag-dialog"), input = dialog.querySelector("#tag-name");
    var names = JSON.parse(document.getElementById("panel").dataset.tagNames || "[]");
    document.getElementById("tag-dialog-card").textContent = named;
    var list = document.getElementById("tag-names");
    list.replaceChildren.apply(list, names.map(function (name) {
      var option = document.createElement("option"); option.value = name; return option;
    }));
    input.value = value;
    var said = document.getElementById("tag-problem");
    said.textContent = refusal || "";
    said.hidden = !refusal;
    input.setAttribute("aria-invalid", refusal ? "true" : "false");
    dialog.returnValue = "";
    dialog.showModal();
    input.select();
  }
  window.deckTagDialog = openTagDialog;  // the cards chosen together are tagged through it too (choose.js)

  // Closed, the focus goes back to the card: its face in the piles, else its Tag button (a pile card's buttons show
  // only while the card is hovered or focused, so the one that opened the dialog may be hidden by then).
  function focusCard(card) {
    var face = document.querySelector('#piles img[data-card="' + CSS.escape(card) + '"]');
    var button = document.querySelector('#panel li[data-card="' + CSS.escape(card) + '"]:not(#considering li) ' +
                                        "button[data-retag]");
    var back = face && face.offsetParent ? face : button, here = document.activeElement;
    // Still in the dialog as it closes (or nowhere): a focus the dialog gave back stays where it went.
    if (back && (!here || here === document.body || here.closest("dialog"))) { back.focus(); }
  }

  document.addEventListener("close", function (event) {
    var dialog = event.target;
    if (dialog.id !== "tag-dialog" || dialog.dataset.cards) { return; }  // several cards: choose.js's
    var card = dialog.dataset.card, typed = dialog.querySelector("#tag-name").value.trim();
    focusCard(card);
    if (dialog.returnValue !== "save") { return; }
    tag(card, typed, function (status, panel, refused) {
      if (status === 200) { return; }
      askTag(card, typed, panel ? panel.querySelector("#save-status").textContent.trim() : refused);
    });
  }, true);

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-retag]");
    if (!button || !editor() || !editor().contains(button)) { return; }
    event.preventDefault();
    askTag(button.dataset.card);
  });

  // The considering list's buttons, and "Consider" on a search result.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-consider], button[data-to]");
    if (!button || !editor() || !editor().contains(button)) { return; }
    event.preventDefault();
    if (button.dataset.consider) {
      window.deckEditor.send(editor().dataset.considerUrl, {card: button.dataset.card, delta: button.dataset.consider});
    } else {
      window.deckEditor.send(editor().dataset.moveUrl, {card: button.dataset.card, count: "1", to: button.dataset.to});
    }
  });

  document.addEventListener("dragstart", function (event) {
    var item = event.target.closest && event.target.closest("li[data-card]");
    if (!item || !editor() || !editor().contains(item)) { return; }
    var from = item.closest("#piles") ? "deck" : item.closest("#considering") ? "considering" : "results";
    event.dataTransfer.setData(TYPE, JSON.stringify({card: item.dataset.card, from: from}));
    event.dataTransfer.effectAllowed = "copyMove";
    document.body.classList.add("dragging-card");
  });

  document.addEventListener("dragend", function () { document.body.classList.remove("dragging-card"); });

  function dropTarget(element) {
    return element.closest && element.closest("[data-drop], #piles, #considering");
  }

  document.addEventListener("dragover", function (event) {
    if (dropTarget(event.target) && Array.from(event.dataTransfer.types).indexOf(TYPE) !== -1) {
      event.preventDefault();
    }
  });

  document.addEventListener("drop", function (event) {
    var target = dropTarget(event.target), raw = event.dataTransfer.getData(TYPE);
    if (!target || !raw) { return; }
    event.preventDefault();
    document.body.classList.remove("dragging-card");
    var drag = JSON.parse(raw), pile = event.target.closest("[data-pile]");
    if (target.dataset.drop === "remove") {
      if (drag.from === "deck") { window.deckEditor.change(drag.card, -1); }
      else if (drag.from === "considering") { window.deckEditor.send(editor().dataset.considerUrl, {card: drag.card, delta: "-1"}); }
    } else if (target.id === "considering") {
      if (drag.from === "results") { window.deckEditor.send(editor().dataset.considerUrl, {card: drag.card, delta: "1"}); }
      else if (drag.from === "deck") { window.deckEditor.send(editor().dataset.moveUrl, {card: drag.card, count: "1", to: "considering"}); }
    } else if (target.id === "piles") {
      if (drag.from === "results") { window.deckEditor.change(drag.card, 1); }
      else if (drag.from === "considering") { window.deckEditor.send(editor().dataset.moveUrl, {card: drag.card, count: "1", to: "main"}); }
      if (grouping() === "tag" && pile && (drag.from !== "deck" || pile.dataset.pile !== currentPile(drag.card))) {
        tag(drag.card, pile.dataset.pile);
      }
    }
  });

  function currentPile(card) {
    var item = document.querySelector('#piles li[data-card="' + CSS.escape(card) + '"]');
    var pile = item && item.closest("[data-pile]");
    return pile ? pile.dataset.pile : null;
  }

  // The tag piles ← and → walk, in the server's order (decks/piles.py: tags by name, ignoring case, untagged last).
  // A pile the card just left empty is gone from the screen, but it stays a step away for that card's next arrow, so
  // → then ← puts the card back in the tag it had; so does untagged when every card has a tag.
  var walked = {card: null, piles: []};

  function tagPiles(card) {
    var piles = Array.from(document.querySelectorAll("#piles [data-pile]")).map(function (p) { return p.dataset.pile; });
    if (walked.card === card) {
      walked.piles.forEach(function (pile) { if (piles.indexOf(pile) === -1) { piles.push(pile); } });
    }
    if (piles.indexOf("") === -1) { piles.push(""); }  // untagged, a step away even when every card has a tag
    piles.sort(function (a, b) {
      if ((a === "") !== (b === "")) { return a === "" ? 1 : -1; }
      var x = a.toLowerCase(), y = b.toLowerCase();
      return x < y ? -1 : x > y ? 1 : 0;
    });
    walked = {card: card, piles: piles};
    return piles;
  }

  document.addEventListener("keydown", function (event) {
    var face = event.target.closest && event.target.closest("#piles img[data-card]");
    if (!face || event.ctrlKey || event.metaKey || event.altKey) { return; }
    var card = face.dataset.card;
    if (event.key === "+" || event.key === "=") {
      event.preventDefault();
      window.deckEditor.change(card, 1);
    } else if (event.key === "-" || event.key === "−") {
      event.preventDefault();
      window.deckEditor.change(card, -1);
    } else if (event.key === "c" || event.key === "C") {
      event.preventDefault();
      window.deckEditor.send(editor().dataset.moveUrl, {card: card, count: "1", to: "considering"});
    } else if (grouping() === "tag" && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
      event.preventDefault();
      var piles = tagPiles(card);
      var here = piles.indexOf(currentPile(card)), next = piles[here + (event.key === "ArrowLeft" ? -1 : 1)];
      if (next !== undefined) { tag(card, next); }
    } else if (event.key === "t" || event.key === "T") {
      event.preventDefault();
      askTag(card);
    }
  });
})();
