// The GM's fog of war (templates/tabletop/map_fog.html): with the Fog tool pressed, a drag on
// the map reveals (or covers) a rectangle or a brush stroke, clicks lay a polygon's points (a
// double click or Enter closes it, Escape drops it). Each shape is posted to the fog's action
// with the page's CSRF header; the new fog comes back to every page, this one too, through the
// live feed, which redraws the stage. What the GM chose (reveal or cover, the shape, the brush's
// size) is kept across those redraws. The buttons (Cover all, Clear, Undo) are plain htmx posts.
(function () {
  "use strict";
  const SVG = "http://www.w3.org/2000/svg";
  let choice = { op: "reveal", shape: "rect", r: null };
  let draft = null; // {scene, shape, points: [[x, y], ...], pointerId}

  function csrf() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"] || ""; } catch (e) { return ""; }
  }
  function isFog(scene) { return scene && scene.dataset.tool === "fog" && document.body.dataset.seat === "gm"; }
  function tools(scene) { return scene.querySelector(".fog-tools"); }
  function notice(text) { const el = document.getElementById("fog-notice"); if (el) el.textContent = text; }

  function at(scene, e) {
    const board = scene.querySelector(".scene-board");
    const r = board.getBoundingClientRect();
    const w = Number(scene.dataset.width), h = Number(scene.dataset.height);
    const x = Math.min(w, Math.max(0, (e.clientX - r.left) / r.width * w));
    const y = Math.min(h, Math.max(0, (e.clientY - r.top) / r.height * h));
    return [Math.round(x * 10) / 10, Math.round(y * 10) / 10];
  }

  // The shape being drawn, shown on the GM's overlay (or a layer of its own when no fog is on)
  function layer(scene) {
    let g = scene.querySelector(".fog-draft");
    if (g) return g;
    const board = scene.querySelector(".scene-board");
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", "fog-layer fog-draft-layer");
    svg.setAttribute("viewBox", "0 0 " + scene.dataset.width + " " + scene.dataset.height);
    svg.setAttribute("preserveAspectRatio", "none");
    g = document.createElementNS(SVG, "g");
    g.setAttribute("class", "fog-draft");
    svg.appendChild(g);
    board.insertBefore(svg, board.querySelector(".tokens"));
    return g;
  }
  function drawDraft() {
    if (!draft) return;
    const g = layer(draft.scene);
    g.replaceChildren();
    const p = draft.points;
    let el;
    if (draft.shape === "rect" && p.length > 1) {
      el = document.createElementNS(SVG, "rect");
      el.setAttribute("x", Math.min(p[0][0], p[1][0])); el.setAttribute("y", Math.min(p[0][1], p[1][1]));
      el.setAttribute("width", Math.abs(p[1][0] - p[0][0])); el.setAttribute("height", Math.abs(p[1][1] - p[0][1]));
    } else if (draft.shape === "poly") {
      el = document.createElementNS(SVG, "polygon");
      el.setAttribute("points", p.map(function (q) { return q.join(","); }).join(" "));
    } else if (draft.shape === "brush") {
      el = document.createElementNS(SVG, "polyline");
      el.setAttribute("points", p.concat(p.length === 1 ? [p[0]] : []).map(function (q) { return q.join(","); }).join(" "));
      el.setAttribute("stroke-width", String(2 * radius(draft.scene)));
    }
    if (el) { el.setAttribute("class", "fog-draft-shape " + draft.shape + " " + choice.op); g.appendChild(el); }
  }
  function clearDraft() {
    if (draft) { const g = draft.scene.querySelector(".fog-draft"); if (g) g.replaceChildren(); }
    draft = null;
  }
  function radius(scene) {
    return choice.r || Math.max(5, Math.round(Number(scene.dataset.width) / 40));
  }

  async function post(scene, fields) {
    const box = tools(scene);
    if (!box) return;
    const url = box.dataset.url.replace(/x\/$/, choice.op + "/");
    const body = new URLSearchParams(Object.assign({ scene: box.dataset.scene }, fields));
    let answer = null;
    try {
      answer = await fetch(url, { method: "POST", credentials: "same-origin",
        headers: { "X-CSRFToken": csrf(), "HX-Request": "true" }, body: body });
    } catch (e) { answer = null; }
    if (answer && answer.ok) { notice(""); return; }
    let text = "The fog did not reach the table: check the connection and try again.";
    if (answer) {
      const said = new DOMParser().parseFromString(await answer.text(), "text/html").getElementById("fog-notice");
      if (said && said.textContent.trim()) text = said.textContent;
    }
    clearDraft();
    notice(text);
  }

  function finish() {
    if (!draft) return;
    const d = draft, p = d.points;
    if (d.shape === "rect") {
      if (p.length < 2) { clearDraft(); return; }
      const x = Math.min(p[0][0], p[1][0]), y = Math.min(p[0][1], p[1][1]);
      const w = Math.abs(p[1][0] - p[0][0]), h = Math.abs(p[1][1] - p[0][1]);
      if (w < 1 || h < 1) { clearDraft(); return; }
      post(d.scene, { shape: "rect", x: x, y: y, w: w, h: h });
    } else if (d.shape === "poly") {
      if (p.length < 3) { notice("A polygon needs three points or more."); return; }
      post(d.scene, { shape: "poly", points: p.map(function (q) { return q.join(","); }).join(" ") });
    } else {
      post(d.scene, { shape: "brush", r: radius(d.scene), points: p.map(function (q) { return q.join(","); }).join(" ") });
    }
    draft = null; // the drawn shape stays until the feed redraws the stage with the new fog
  }

  document.addEventListener("pointerdown", function (e) {
    const scene = e.target.closest && e.target.closest(".scene");
    if (!isFog(scene) || !e.target.closest(".scene-board") || e.button !== 0) return;
    if (!tools(scene) || tools(scene).dataset.on !== "true") { notice("Cover the map first: then reveal what the party sees."); return; }
    e.preventDefault();
    const point = at(scene, e);
    if (choice.shape === "poly") {
      if (!draft || draft.shape !== "poly") draft = { scene: scene, shape: "poly", points: [] };
      draft.points.push(point);
      drawDraft();
      return;
    }
    scene.querySelector(".scene-board").setPointerCapture(e.pointerId);
    draft = { scene: scene, shape: choice.shape, points: [point], pointerId: e.pointerId };
    drawDraft();
  });
  document.addEventListener("pointermove", function (e) {
    if (!draft || draft.pointerId !== e.pointerId || draft.shape === "poly") return;
    const point = at(draft.scene, e);
    if (draft.shape === "rect") draft.points[1] = point;
    else {
      const last = draft.points[draft.points.length - 1];
      if (Math.hypot(point[0] - last[0], point[1] - last[1]) < radius(draft.scene) / 4) return;
      if (draft.points.length < 4000) draft.points.push(point);
    }
    drawDraft();
  });
  document.addEventListener("pointerup", function (e) {
    if (draft && draft.pointerId === e.pointerId && draft.shape !== "poly") finish();
  });
  document.addEventListener("pointercancel", function (e) {
    if (draft && draft.pointerId === e.pointerId) clearDraft();
  });
  document.addEventListener("dblclick", function (e) {
    if (draft && draft.shape === "poly" && e.target.closest && e.target.closest(".scene-board")) {
      // the double click's two clicks laid the last point twice
      const p = draft.points;
      if (p.length > 1 && p[p.length - 1][0] === p[p.length - 2][0] && p[p.length - 1][1] === p[p.length - 2][1]) p.pop();
      finish();
    }
  });
  document.addEventListener("keydown", function (e) {
    if (!draft || draft.shape !== "poly") return;
    if (e.key === "Enter") { e.preventDefault(); finish(); }
    else if (e.key === "Escape") clearDraft();
  });

  // The GM's choices, kept across the stage's redraws
  document.addEventListener("change", function (e) {
    const input = e.target;
    if (!input.closest || !input.closest(".fog-tools")) return;
    if (input.name === "fog-op") choice.op = input.value;
    else if (input.name === "fog-shape") { choice.shape = input.value; clearDraft(); }
    else if (input.name === "fog-r") choice.r = Number(input.value);
  });
  function settle() {
    for (const box of document.querySelectorAll(".fog-tools")) {
      for (const input of box.querySelectorAll('input[name="fog-op"], input[name="fog-shape"]')) {
        input.checked = input.value === (input.name === "fog-op" ? choice.op : choice.shape);
      }
      const r = box.querySelector('input[name="fog-r"]');
      if (r && choice.r) r.value = String(choice.r);
    }
  }
  document.addEventListener("htmx:wsAfterMessage", settle);
  document.addEventListener("htmx:afterSettle", settle);
  document.addEventListener("map:tool", function (e) { if (e.detail.tool !== "fog") clearDraft(); });
})();
