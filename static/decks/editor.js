// Deck editor keyboard: "/" focuses the card search, Enter adds the first result of the current
// query, ArrowDown moves into the results. Everything else is plain htmx attributes.
(function () {
  "use strict";
  function search() { return document.getElementById("q"); }
  function firstAdd() {
    var results = document.getElementById("results");
    var q = search();
    if (!results || !q || results.dataset.query !== q.value.trim()) { return null; }
    return results.querySelector("button.add-card");
  }
  document.addEventListener("keydown", function (event) {
    var q = search();
    if (!q) { return; }
    var tag = (event.target.tagName || "").toLowerCase();
    if (event.key === "/" && tag !== "input" && tag !== "textarea" && tag !== "select") {
      event.preventDefault();
      q.focus();
      q.select();
      return;
    }
    if (event.target !== q) { return; }
    if (event.key === "Enter") {
      var button = firstAdd();
      if (button) {
        event.preventDefault();
        button.click();
      }
    } else if (event.key === "ArrowDown") {
      var first = document.querySelector("#results button.add-card");
      if (first) {
        event.preventDefault();
        first.focus();
      }
    }
  });
})();
