// "Edit as text": the main deck written out whole in a dialog, saved through the editor's queue
// (window.deckEditor, static/decks/editor.js) as one change, undone as one. A text refused (a line that does not
// read, or a deck changed since the text was taken) comes back in the dialog with the reason, and a text closed
// without saving (Cancel, Escape) comes back the next time the dialog opens, until the player starts again from
// the deck: it is never lost.
(function () {
  "use strict";

  var version = 0;  // the version the text in the dialog is of
  var deckText = "";  // the deck's own text, as last fetched
  var draft = null;  // a text closed without saving, and the version it is of: {text, version}

  function dialog() { return document.getElementById("text-dialog"); }
  function editor() { return document.getElementById("editor"); }

  function open(text, reasons, fromDraft) {
    var box = document.getElementById("deck-text"), said = document.getElementById("text-problems");
    box.value = text;
    document.getElementById("text-draft").hidden = !fromDraft;
    said.replaceChildren.apply(said, reasons.map(function (reason) {
      var line = document.createElement("p");
      line.className = "issue issue-error";
      line.textContent = reason;
      return line;
    }));
    said.hidden = !reasons.length;
    box.setAttribute("aria-invalid", reasons.length ? "true" : "false");
    dialog().returnValue = "";
    if (!dialog().open) { dialog().showModal(); }
    box.focus();
  }

  function failed(reason) {
    var status = document.getElementById("queue-status");
    status.dataset.state = "failed";
    status.textContent = reason;
  }

  document.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest("#edit-as-text") || !editor()) { return; }
    window.deckEditor.whenSaved(function () {
      fetch(editor().dataset.textUrl, {credentials: "same-origin", headers: {"Accept": "application/json"}})
        .then(function (response) {
          if (!response.ok) { throw new Error("status " + response.status); }
          return response.json();
        })
        .then(function (deck) {
          deckText = deck.text;
          if (draft && draft.text !== deck.text) {
            version = draft.version;  // saved, it is checked against the deck it was written from, as before
            open(draft.text, [], true);
          } else {
            version = deck.version;
            open(deck.text, []);
          }
        })
        .catch(function () { failed("The deck's text could not be fetched; try again."); });
    });
  });

  // Read what the panel says of a refused text: its notice, then each line's problem (without the buttons that
  // belong beside the quick-add box).
  function reasons(panel, status, refused) {
    if (!panel) { return [refused]; }
    if (status === 409) {
      version = Number(panel.dataset.version);
      return ["The deck was changed in another window since this text was taken. Save again to make the deck " +
              "this text, or Cancel to keep the deck as it is."];
    }
    var out = [panel.querySelector("#save-status").textContent.trim()];
    panel.querySelectorAll('.quick-problems[data-for="text"] li').forEach(function (item) {
      var copy = item.cloneNode(true);
      copy.querySelectorAll("button").forEach(function (button) { button.remove(); });
      out.push(copy.textContent.replace(/\s+/g, " ").trim());
    });
    return out;
  }

  document.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest("#text-from-deck")) { return; }
    draft = null;
    window.deckEditor.whenSaved(function () { document.getElementById("edit-as-text").click(); });
  });

  document.addEventListener("close", function (event) {
    if (event.target.id !== "text-dialog") { return; }
    var text = document.getElementById("deck-text").value;
    if (event.target.returnValue !== "save") {
      draft = text !== deckText ? {text: text, version: version} : null;
      return;
    }
    draft = null;
    var oversize = window.deckEditor.tooLarge({lines: text, version: String(version)});
    if (oversize) {  // the server would not read it: said here, the text kept
      open(text, [oversize]);
      return;
    }
    window.deckEditor.send(editor().dataset.wholeUrl, {lines: text, version: String(version)},
      function (status, panel, refused) { if (status !== 200) { open(text, reasons(panel, status, refused)); } });
  }, true);
})();
