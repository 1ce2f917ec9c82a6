// The editor's sample hand: an opening hand drawn from the deck as it stands on the page (the deck panel's rows),
// one mulligan as DG-4.5 allows (the hand goes back, the deck is shuffled, a new hand is drawn and kept), then the
// next cards one at a time. Shuffled with the browser's cryptographic random source; nothing is saved.
(function () {
  "use strict";

  var library = [], hand = [], mulliganTaken = false;

  function $(id) { return document.getElementById(id); }

  function deckCards() {
    var cards = [];  // the deck's rows: the considering list's are not drawn from
    document.querySelectorAll("#panel li[data-card][data-count]:not(#considering li)").forEach(function (li) {
      for (var i = 0; i < Number(li.dataset.count); i++) { cards.push({number: li.dataset.card, name: li.dataset.name}); }
    });
    return cards;
  }

  function shuffle(cards) {
    var random = new Uint32Array(1);
    for (var i = cards.length - 1; i > 0; i--) {
      crypto.getRandomValues(random);
      var j = random[0] % (i + 1), held = cards[i];
      cards[i] = cards[j];
      cards[j] = held;
    }
    return cards;
  }

  function size() { return Number($("sample-hand").dataset.openingHand); }

  function draw(n) { hand = hand.concat(library.splice(0, n)); }

  function show(message) {
    var list = $("hand-cards");
    list.textContent = "";
    var face = $("sample-hand").dataset.faceUrl;
    hand.forEach(function (card) {
      var li = document.createElement("li"), img = document.createElement("img");
      img.src = face.replace("CN", encodeURIComponent(card.number));
      img.alt = card.name;
      img.width = 150;
      img.height = 210;
      img.tabIndex = 0;
      img.dataset.preview = card.number;
      var name = document.createElement("span");
      name.className = "hand-name";
      name.textContent = card.name;
      name.setAttribute("aria-hidden", "true");  // the face's text alternative already names it: said once
      li.append(img, name);
      list.appendChild(li);
    });
    $("hand-status").textContent = message + " " + hand.length + " in hand, " + library.length + " left in the deck.";
    var focused = document.activeElement;
    $("mulligan").disabled = mulliganTaken || !hand.length;
    $("draw-next").disabled = !library.length || !hand.length;
    // A button that disabled itself as it was pressed (Mulligan, the last draw) would drop the keyboard's focus
    // to the page: it goes to the next button still enabled.
    if (focused && focused.disabled) {
      var next = ["draw-next", "draw-hand"].map($).filter(function (b) { return !b.disabled; })[0];
      next.focus();
    }
  }

  // A key held down repeats, and the focus moves as the buttons disable themselves (the last draw puts it on "Draw
  // a hand"): a held key presses no button but the one it went down on, so holding Enter on "Draw the next card"
  // never deals a new hand over the cards drawn.
  var pressedOn = null;
  document.addEventListener("keydown", function (event) {
    if (!event.target.closest || !event.target.closest("#sample-hand")) { return; }
    if (!event.repeat) { pressedOn = event.target; } else if (event.target !== pressedOn) { event.preventDefault(); }
  });

  document.addEventListener("click", function (event) {
    var id = event.target.id;
    if (id === "draw-hand") {
      library = shuffle(deckCards());
      hand = [];
      mulliganTaken = false;
      if (!library.length) { show("The deck has no cards yet."); return; }
      draw(size());
      show("A new opening hand.");
    } else if (id === "mulligan" && !mulliganTaken) {
      library = shuffle(library.concat(hand));
      hand = [];
      mulliganTaken = true;
      draw(size());
      show("Mulligan taken: this hand is kept (DG-4.5).");
    } else if (id === "draw-next" && library.length) {
      draw(1);
      show("Drew " + hand[hand.length - 1].name + ".");
    }
  });
})();
