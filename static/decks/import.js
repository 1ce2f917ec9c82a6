// The import form: a paste too long for the server to take (its body limit, config.middleware) is said at once, in
// the page, and nothing is sent, so the text stays where it was pasted instead of giving way to an error page.
(function () {
  "use strict";

  // A refused import comes back as a new page: the keyboard starts on what was refused, which is read out.
  function showProblems() {
    var problems = document.getElementById("import-problems");
    if (problems) { problems.focus(); }
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", showProblems); } else { showProblems(); }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.id !== "import-form") { return; }
    var limit = Number(form.dataset.bodyLimit), size = new URLSearchParams(new FormData(form)).toString().length;
    var notice = document.getElementById("import-too-long");
    if (!limit || size <= limit) { notice.hidden = true; return; }
    event.preventDefault();
    notice.textContent = "Nothing was sent: this import is " + size.toLocaleString("en") + " bytes as sent, and an " +
      "import takes at most " + limit.toLocaleString("en") + ": is more than one deck pasted?";
    notice.hidden = false;
    form.querySelector("#import-list").focus();
  });
})();
