// "Copy" beside a text to take whole (the deck page's list as text, its deck code): the text is put on the
// clipboard, and said so. Shown only where scripts run; where the clipboard is refused, the text is selected for
// the player's own Ctrl+C.
(function () {
  "use strict";

  function said(id, words) {
    var status = document.querySelector('[data-copied="' + id + '"]');
    if (status) { status.textContent = words; }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-copy]");
    if (!button) { return; }
    var id = button.dataset.copy, field = document.getElementById(id);
    if (!field) { return; }
    function selectIt() {
      field.focus();
      field.select();
      said(id, "Selected: press Ctrl+C (⌘C on a Mac) to copy.");
    }
    if (!navigator.clipboard || !navigator.clipboard.writeText) { selectIt(); return; }
    navigator.clipboard.writeText(field.value).then(function () { said(id, "Copied."); }, selectIt);
  });

  function show() {
    document.querySelectorAll("button[data-copy]").forEach(function (button) { button.hidden = false; });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", show); } else { show(); }
})();
