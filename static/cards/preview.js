// The card preview on hover or focus: any element with data-preview="<collector number>" shows the card's large
// view (templates/cards/_card_preview.html, fetched once per card from data-preview-url, "CN" standing for the
// number) beside it. Pointer and keyboard alike; Escape hides it. The preview describes its trigger
// (aria-describedby, added to what already describes it, such as a pile card's keys) while it is shown.
(function () {
  "use strict";

  // `asked` counts the previews asked for: only the latest one's answer is shown, so a trigger left and focused
  // again before its preview arrived does not get two previews, one of them never hidden.
  var cache = {}, shown = null, trigger = null, base = null, asked = 0;

  function urlFor(number) {
    base = base || document.documentElement.dataset.previewUrl || "/cards/CN/preview/";
    return base.replace("CN", encodeURIComponent(number));
  }

  function fetchPreview(number) {
    if (!cache[number]) {
      cache[number] = fetch(urlFor(number), {credentials: "same-origin"})
        .then(function (r) { return r.ok ? r.text() : ""; })
        .catch(function () { delete cache[number]; return ""; });
    }
    return cache[number];
  }

  function place(zoom, target) {
    var box = target.getBoundingClientRect(), width = zoom.offsetWidth, height = zoom.offsetHeight;
    var left = box.right + 12;
    if (left + width > window.innerWidth - 8) { left = Math.max(8, box.left - width - 12); }
    if (left + width > window.innerWidth - 8) { left = Math.max(8, window.innerWidth - width - 8); }
    var top = Math.min(Math.max(8, box.top - 40), Math.max(8, window.innerHeight - height - 8));
    zoom.style.left = left + "px";
    zoom.style.top = top + "px";
  }

  function show(target) {
    var number = target.dataset.preview;
    if (!number || trigger === target) { return; }
    hide();
    trigger = target;
    var mine = asked;
    fetchPreview(number).then(function (html) {
      if (mine !== asked || trigger !== target || !html) { return; }
      var holder = document.createElement("template");
      holder.innerHTML = html.trim();
      var zoom = holder.content.querySelector(".card-zoom");
      if (!zoom) { return; }
      zoom.id = "card-preview";
      zoom.classList.add("floating");
      // In the page's main landmark, as the card it shows: outside every landmark a screen reader may skip it.
      (document.querySelector("main") || document.body).appendChild(zoom);
      place(zoom, target);
      shown = zoom;
      var own = target.getAttribute("aria-describedby");
      target.dataset.describedBy = own === null ? "" : own;
      target.setAttribute("aria-describedby", own ? own + " card-preview" : "card-preview");
    });
  }

  function hide() {
    asked += 1;
    if (shown) { shown.remove(); shown = null; }
    if (trigger && trigger.dataset.describedBy !== undefined) {  // what described it before, given back
      var own = trigger.dataset.describedBy;
      delete trigger.dataset.describedBy;
      if (own) { trigger.setAttribute("aria-describedby", own); } else { trigger.removeAttribute("aria-describedby"); }
    }
    trigger = null;
  }

  document.addEventListener("mouseover", function (event) {
    var target = event.target.closest && event.target.closest("[data-preview]");
    if (target) { show(target); } else if (trigger && !trigger.contains(document.activeElement)) { hide(); }
  });
  document.addEventListener("focusin", function (event) {
    var target = event.target.closest && event.target.closest("[data-preview]");
    if (target) { show(target); } else { hide(); }
  });
  document.addEventListener("keydown", function (event) { if (event.key === "Escape") { hide(); } });
  // Scrolling (a focused card brought into view, for one) moves the preview along with its card.
  window.addEventListener("scroll", function () { if (shown && trigger) { place(shown, trigger); } }, {passive: true});
})();
