// Cards on the felt, what CSS and htmx cannot do: a card that comes live (not at load, not in a
// replay) is marked .fresh and slides in, as a die tumbles in; a card's meaning moves inside the
// screen (below the card if no room above) and Escape hides it; one's docked hand carries the
// button of each form that takes its picks (data-picks-label).
(function () {
  "use strict";
  const all = () => document.querySelectorAll(".card-face[data-card-id]");
  const key = (f) => { const h = f.parentElement.closest("[id]"); return (h ? h.id : "") + "|" + f.dataset.cardId; };
  let before = null;
  document.addEventListener("htmx:wsBeforeMessage", (e) => {
    if (!e.defaultPrevented) before = new Set([...all()].map(key));
  });
  document.addEventListener("htmx:wsAfterMessage", () => {
    const seen = before, c = document.getElementById("connection");
    before = null;
    if (seen && c && c.dataset.state === "live") for (const f of all()) if (!seen.has(key(f))) f.classList.add("fresh");
  });

  const faceOf = (t) => {
    const p = t.closest && t.closest(".card-pick");
    return p ? p.querySelector(".card-face") : t.closest && t.closest(".card-face");
  };
  function place(e) {
    const f = faceOf(e.target), box = f && f.querySelector(".card-meaning");
    if (!box) return;
    f.style.removeProperty("--nudge");
    delete f.dataset.below;
    requestAnimationFrame(() => {
      let r = box.getBoundingClientRect();
      if (r.width < 2) return;
      if (r.top < 4) { f.dataset.below = "1"; r = box.getBoundingClientRect(); }
      const w = document.documentElement.clientWidth;
      const n = r.left < 4 ? 4 - r.left : (r.right > w - 4 ? w - 4 - r.right : 0);
      if (n) f.style.setProperty("--nudge", n + "px");
    });
  }
  document.addEventListener("focusin", place);
  document.addEventListener("mouseover", place);
  document.addEventListener("keydown", (e) => {
    const f = e.key === "Escape" && faceOf(e.target);
    if (f) f.dataset.quiet = "1";
  });
  const unquiet = (e) => { const f = faceOf(e.target); if (f) delete f.dataset.quiet; };
  document.addEventListener("focusout", unquiet);
  document.addEventListener("mouseout", unquiet);

  function bars() {
    for (const bar of document.querySelectorAll("[data-pick-bar]")) {
      const who = bar.dataset.pickBar;
      const forms = [...document.querySelectorAll("form[data-picks-label]")].filter((f) =>
        (!f.dataset.picksFrom || f.dataset.picksFrom === who) && f.offsetParent && f.querySelector("[type=submit]"));
      const n = document.querySelectorAll('.card-pick[aria-pressed="true"][data-holder="' + who + '"]').length;
      const said = document.createElement("span");
      said.textContent = n ? n + " picked" : "Pick cards, then";
      bar.replaceChildren(said, ...forms.map((f) => {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "small";
        b.textContent = f.dataset.picksLabel;
        b.onclick = () => f.requestSubmit(f.querySelector("[type=submit]"));
        return b;
      }));
      bar.hidden = !forms.length;
    }
  }
  const when = ["DOMContentLoaded", "htmx:afterSettle", "htmx:wsAfterMessage", "htmx:afterRequest", "tabletop:picked"];
  for (const name of when) {
    document.addEventListener(name, bars);
  }
  document.addEventListener("toggle", bars, true);
})();
