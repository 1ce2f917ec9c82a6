// Deck pickers offer only the decks that the chosen format's games take (docs/rules.md, DC-8). The server renders
// the form for the format chosen when the page was made, hiding and disabling the other decks, and refuses a deck
// of another format whatever is sent; this script follows a change of the choice on the page: a format's radio
// button, or the deck select whose deck's format the game is played in. Each carries the formats it takes in
// data-takes; each deck offered carries its format in data-deck-format (an <option>, or a <label> round a checkbox).
(function () {
  "use strict";

  function chosenTakes(form) {
    const select = form.querySelector("select[data-format-source]");
    if (select && select.selectedOptions.length) return select.selectedOptions[0].dataset.takes;
    const radio = form.querySelector("input[type=radio][data-takes]:checked");
    return radio ? radio.dataset.takes : null;
  }

  function follow(form) {
    const takes = chosenTakes(form);
    if (!takes) return;
    const allowed = takes.split(" ");
    for (const offered of form.querySelectorAll("[data-deck-format]")) {
      const taken = allowed.includes(offered.dataset.deckFormat);
      offered.hidden = !taken;
      if (offered.tagName === "OPTION") {
        offered.disabled = !taken;
        if (!taken && offered.selected) offered.parentElement.value = "";
      } else {
        for (const input of offered.querySelectorAll("input")) {
          input.disabled = !taken;
          if (!taken) input.checked = false;
        }
      }
    }
  }

  for (const form of document.querySelectorAll("form[data-deck-pickers]")) {
    form.addEventListener("change", (event) => {
      if (event.target.matches("[data-takes], select[data-format-source]")) follow(form);
    });
  }
})();
