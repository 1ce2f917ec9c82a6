// Filter controls of the catalog page. They never filter on their own: each one writes its term
// into the search box, so the query text is the one source of truth (and the shareable URL).
(function () {
  "use strict";

  function escapeRegExp(text) {
    return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }

  // Matches `field:value` (value bare or quoted) for any of the field's names.
  function termPattern(names) {
    var fields = names.map(escapeRegExp).join("|");
    return new RegExp("(^|\\s)(?:" + fields + "):(\"[^\"]*\"|[^\\s()]+)", "gi");
  }

  function tidy(text) {
    return text.replace(/\s+/g, " ").trim();
  }

  function quote(value) {
    return /\s/.test(value) ? "\"" + value + "\"" : value;
  }

  function setFieldTerm(input, names, value) {
    var text = input.value.replace(termPattern(names), " ");
    if (value) {
      text = text + " " + names[0] + ":" + quote(value);
    }
    input.value = tidy(text);
  }

  function toggleTerm(input, term, on) {
    var pattern = new RegExp("(^|\\s)" + escapeRegExp(term) + "(?=\\s|$)", "gi");
    var text = input.value.replace(pattern, " ");
    input.value = tidy(on ? text + " " + term : text);
  }

  // Set the controls from the terms already in the query text.
  function syncFromText(form, input) {
    form.querySelectorAll("select[data-term-field]").forEach(function (select) {
      var names = select.dataset.termAliases.split(" ");
      var match = termPattern(names).exec(input.value);
      var value = match ? match[2].replace(/^"|"$/g, "").toLowerCase() : "";
      // A value may also be written another way the search reads (a craft by its colour: c:blue is Divine).
      var known = Array.prototype.find.call(select.options, function (o) {
        return o.value && (o.value === value || o.dataset.also === value);
      });
      select.value = known ? known.value : "";
    });
    form.querySelectorAll("input[data-term]").forEach(function (box) {
      var pattern = new RegExp("(^|\\s)" + escapeRegExp(box.dataset.term) + "(?=\\s|$)", "i");
      box.checked = pattern.test(input.value);
    });
  }

  function submit(form) {
    if (typeof form.requestSubmit === "function") {
      form.requestSubmit();
    } else {
      form.submit();
    }
  }

  function init() {
    var form = document.getElementById("card-search");
    var input = document.getElementById("q");
    var filters = form && form.querySelector("[data-filters]");
    if (!form || !input || !filters) {
      return;
    }
    filters.hidden = false;
    syncFromText(form, input);

    filters.querySelectorAll("select[data-term-field]").forEach(function (select) {
      select.addEventListener("change", function () {
        setFieldTerm(input, select.dataset.termAliases.split(" "), select.value);
        submit(form);
      });
    });
    filters.querySelectorAll("input[data-term]").forEach(function (box) {
      box.addEventListener("change", function () {
        toggleTerm(input, box.dataset.term, box.checked);
        submit(form);
      });
    });
    var add = filters.querySelector("[data-add-stat]");
    if (add) {
      add.addEventListener("click", function () {
        var value = document.getElementById("f-value").value.trim();
        if (!/^\d+$/.test(value)) {
          document.getElementById("f-value").focus();
          return;
        }
        var term = document.getElementById("f-stat").value + document.getElementById("f-op").value + value;
        input.value = tidy(input.value + " " + term);
        submit(form);
      });
    }
    input.addEventListener("input", function () { syncFromText(form, input); });
    // Keep keyboard focus where the reader was: a sort heading stays focused in the new table,
    // a page link hands focus to the result count at the top of the new page.
    document.body.addEventListener("htmx:afterSwap", function (event) {
      var from = event.detail.requestConfig && event.detail.requestConfig.elt;
      if (event.detail.target.id !== "results" || !from || !from.closest) {
        return;
      }
      var target = null;
      if (from.dataset && from.dataset.sort) {
        target = document.querySelector("#results thead a[data-sort=\"" + from.dataset.sort + "\"]");
      } else if (from.closest(".pagination")) {
        target = document.querySelector("#results .result-count");
        if (target) {
          target.setAttribute("tabindex", "-1");
          target.scrollIntoView({block: "start"});
        }
      }
      if (target) {
        target.focus();
      }
    });
    document.body.addEventListener("htmx:historyRestore", function () { syncFromText(form, input); });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
