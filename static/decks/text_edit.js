// "Edit as text": the main deck written out whole in a dialog, saved through the editor's queue
// (window.deckEditor, static/decks/editor.js) as one change, undone as one. A text refused (a line that does not
// read, or a deck changed since the text was taken) comes back in the dialog with the reason: it is never lost.
(function () {
  "use strict";

  var version = 0;  // the version the text in the dialog is of

  function dialog() { return document.getElementById("text-dialog"); }
  function editor() { return document.getElementById("editor"); }

  function open(text, reasons) {
    var box = document.getElementById("deck-text"), said = document.getElementById("text-problems");
    box.value = text;
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
        .then(function (deck) { version = deck.version; open(deck.text, []); })
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

  document.addEventListener("close", function (event) {
    if (event.target.id !== "text-dialog" || event.target.returnValue !== "save") { return; }
    var text = document.getElementById("deck-text").value;
    var oversize = window.deckEditor.tooLarge({lines: text, version: String(version)});
    if (oversize) {  // the server would not read it: said here, the text kept
      open(text, [oversize]);
      return;
    }
    window.deckEditor.send(editor().dataset.wholeUrl, {lines: text, version: String(version)},
      function (status, panel, refused) { if (status !== 200) { open(text, reasons(panel, status, refused)); } });
  }, true);
})();
