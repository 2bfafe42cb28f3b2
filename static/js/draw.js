// The map's Ruler, Ping, Draw and Erase tools (templates/tabletop/map_draw.html).
// - Ruler: drag on the map; the others see it live while it is held (a "mark" frame on the
//   table's socket, about ten a second: tabletop/live/pointers.py) and it goes when let go.
//   It counts the way the grid counts: square cells with every diagonal step one cell (as in
//   D&D 5e); hex cells by hex steps; with no grid, straight-line squares of the grid's size.
// - Ping: a click (a tap on a phone) draws everyone's eye to a spot for two seconds; pressing
//   Ping again (Enter on it) pings the middle of what you see, for the keyboard.
// - Draw: freehand, line, rectangle or circle, posted to the table when let go; the drawing
//   comes back through the live feed like everyone else's. Erase: click a drawing you may
//   erase (yours; the GM: any), or use the list under the map.
// Rulers and pings are moments, not facts: never in the log (docs/protocol.md).
(function () {
  "use strict";
  const SVG = "http://www.w3.org/2000/svg";
  const SEND_EVERY_MS = 100; // the ruler while it moves
  const KEEP_ALIVE_MS = 1000; // the ruler held still
  const RULER_GONE_MS = 3000; // another's ruler not heard from for this long is gone
  const PING_MS = 2000;
  let live = null; // the socket's wrapper while it is open

  document.addEventListener("htmx:wsOpen", function (e) { live = e.detail.socketWrapper; });
  document.addEventListener("htmx:wsClose", function () { live = null; });

  function csrf() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"] || ""; } catch (e) { return ""; }
  }
  function notice(text) {
    const el = document.getElementById("scene-notice");
    if (el) el.textContent = text;
  }
  function sceneOf(el) { return el && el.closest ? el.closest(".scene") : null; }
  function sceneId(scene) { return Number(scene.id.replace("scene-", "")); }
  function tool(scene) { return (scene && scene.dataset.tool) || "move"; }
  function dims(scene) { return [Number(scene.dataset.width), Number(scene.dataset.height)]; }
  function isGm() { return document.body.dataset.seat === "gm"; }
  function seated() { return document.body.dataset.seat === "gm" || document.body.dataset.seat === "player"; }
  function clamp(v, lo, hi) { return Math.max(lo, Math.min(hi, v)); }

  // A pointer's place in the scene's own coordinates: the board's box is 0..width, 0..height.
  function at(scene, e) {
    const board = scene.querySelector(".scene-board");
    const box = board.getBoundingClientRect();
    const [w, h] = dims(scene);
    return [Math.round(clamp((e.clientX - box.left) / box.width * w, 0, w) * 10) / 10,
            Math.round(clamp((e.clientY - box.top) / box.height * h, 0, h) * 10) / 10];
  }

  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const k in attrs) node.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(node);
    return node;
  }
  function liveLayer(id) { return document.getElementById("scene-" + id + "-live"); }
  function fontSize(scene) { return Math.max(14, dims(scene)[0] / 55); }

  // Measuring, the way the grid counts
  function grid(scene) { // the grid layer's data (templates/tabletop/map_grid.html), redrawn live when the GM sets it
    const layer = scene.querySelector(".grid-layer");
    const d = layer ? layer.dataset : {};
    return { kind: d.kind || "none", size: Number(d.size) || 70, x: Number(d.x) || 0, y: Number(d.y) || 0,
             distance: Number(d.distance) || 5, unit: d.unit || "" };
  }
  function hexOf(g, x, y) { // pointy-top hexes, ``size`` across: axial coordinates, rounded
    const r = g.size / Math.sqrt(3);
    let q = (Math.sqrt(3) / 3 * x - y / 3) / r, s = (2 / 3 * y) / r;
    let cx = q, cz = s, cy = -q - s;
    let rx = Math.round(cx), ry = Math.round(cy), rz = Math.round(cz);
    const dx = Math.abs(rx - cx), dy = Math.abs(ry - cy), dz = Math.abs(rz - cz);
    if (dx > dy && dx > dz) rx = -ry - rz; else if (dy > dz) ry = -rx - rz; else rz = -rx - ry;
    return [rx, rz];
  }
  function cells(scene, a, b) {
    const g = grid(scene);
    if (g.kind === "square") {
      const cx = function (v) { return Math.floor((v - g.x) / g.size); };
      const cy = function (v) { return Math.floor((v - g.y) / g.size); };
      return Math.max(Math.abs(cx(a[0]) - cx(b[0])), Math.abs(cy(a[1]) - cy(b[1])));
    }
    if (g.kind === "hex") {
      const [q1, r1] = hexOf(g, a[0] - g.x, a[1] - g.y), [q2, r2] = hexOf(g, b[0] - g.x, b[1] - g.y);
      return (Math.abs(q1 - q2) + Math.abs(r1 - r2) + Math.abs(q1 + r1 - q2 - r2)) / 2;
    }
    return Math.round(Math.hypot(b[0] - a[0], b[1] - a[1]) / g.size * 10) / 10;
  }
  function reading(scene, a, b) {
    const g = grid(scene);
    const n = cells(scene, a, b);
    const far = Math.round(n * g.distance * 10) / 10;
    const word = g.kind === "hex" ? (n === 1 ? "hex" : "hexes") : (n === 1 ? "square" : "squares");
    return n + " " + word + (g.unit ? " · " + far + " " + g.unit : "");
  }
  function howCounted(scene) {
    const g = grid(scene);
    if (g.kind === "square") return "Every diagonal step counts as one square.";
    if (g.kind === "hex") return "Counted in hex steps.";
    return "No grid: counted in straight-line squares of " + g.size + " map pixels.";
  }

  // One ruler drawn in a scene's live layer (``key``: whose)
  function drawRuler(scene, key, points, by) {
    const layer = liveLayer(sceneId(scene));
    if (!layer) return;
    let g = layer.querySelector('[data-ruler="' + key + '"]');
    if (!g) {
      g = el("g", { "class": "ruler", "data-ruler": key }, layer);
      el("line", {}, g);
      el("circle", { "class": "end" }, g);
      el("circle", { "class": "end" }, g);
      const t = el("text", {}, g);
      t.setAttribute("font-size", String(fontSize(scene)));
    }
    const [a, b] = points;
    const [line, c1, c2, text] = g.children;
    line.setAttribute("x1", a[0]); line.setAttribute("y1", a[1]);
    line.setAttribute("x2", b[0]); line.setAttribute("y2", b[1]);
    const r = String(fontSize(scene) / 3);
    c1.setAttribute("cx", a[0]); c1.setAttribute("cy", a[1]); c1.setAttribute("r", r);
    c2.setAttribute("cx", b[0]); c2.setAttribute("cy", b[1]); c2.setAttribute("r", r);
    text.setAttribute("x", b[0] + fontSize(scene) * 0.6);
    text.setAttribute("y", b[1] - fontSize(scene) * 0.6);
    text.textContent = (by ? by + ": " : "") + reading(scene, a, b);
    g.dataset.heard = String(Date.now());
  }
  function dropRuler(id, key) {
    const layer = liveLayer(id);
    const g = layer && layer.querySelector('[data-ruler="' + key + '"]');
    if (g) g.remove();
  }
  setInterval(function () { // another's ruler whose socket went quiet
    const now = Date.now();
    for (const g of document.querySelectorAll('.live-layer .ruler:not([data-ruler="me"])')) {
      if (now - Number(g.dataset.heard || 0) > RULER_GONE_MS) g.remove();
    }
  }, 1000);

  function near(scene, p) {
    const [w, h] = dims(scene);
    const row = p[1] < h / 3 ? "top" : p[1] > 2 * h / 3 ? "bottom" : "";
    const col = p[0] < w / 3 ? "left" : p[0] > 2 * w / 3 ? "right" : "";
    if (!row && !col) return "near the middle";
    return "near the " + [row, col].filter(Boolean).join(" ");
  }
  function showPing(scene, p, by) {
    const layer = liveLayer(sceneId(scene));
    if (!layer) return;
    const size = fontSize(scene);
    const g = el("g", { "class": "ping" }, layer);
    el("circle", { cx: p[0], cy: p[1], r: size * 2, "class": "ring" }, g);
    el("circle", { cx: p[0], cy: p[1], r: size / 3, "class": "dot" }, g);
    const t = el("text", { x: p[0] + size, y: p[1] - size, "font-size": size }, g);
    t.textContent = by;
    const say = document.getElementById("scene-" + sceneId(scene) + "-pings");
    if (say) say.textContent = by + " pings the map " + near(scene, p) + ".";
    setTimeout(function () { g.remove(); }, PING_MS);
  }

  // Sending marks
  function send(frame) {
    if (!live) return false;
    live.send(JSON.stringify(Object.assign({ type: "mark" }, frame)));
    return true;
  }

  let held = null; // what the pointer is doing: {kind, scene, pointer, points, ...}
  let lastSent = 0, flush = null, keep = null;
  function sendRuler() {
    if (!held || held.kind !== "ruler") return;
    lastSent = Date.now();
    send({ mark: "ruler", scene: sceneId(held.scene), points: held.points });
  }
  function rulerMoved() {
    const wait = SEND_EVERY_MS - (Date.now() - lastSent);
    if (wait <= 0) { clearTimeout(flush); flush = null; sendRuler(); }
    else if (!flush) flush = setTimeout(function () { flush = null; sendRuler(); }, wait);
  }

  // Drawing's preview, in the live layer (the drawing itself comes back through the feed)
  function options(scene) {
    const q = function (s) { return scene.querySelector(s); };
    const width = Number((q(".draw-width") || {}).value) || 4;
    return { shape: (q(".draw-shape") || {}).value || "freehand", colour: (q(".draw-colour") || {}).value || "#e63946",
             width: clamp(Math.round(width), 1, 40), layer: q(".draw-gm-layer") && q(".draw-gm-layer").checked ? "gm" : "table" };
  }
  function preview(h) {
    const layer = liveLayer(sceneId(h.scene));
    if (!layer) return;
    if (h.node) h.node.remove();
    const o = h.options, p = h.points, a = p[0], b = p[p.length - 1];
    const style = { stroke: o.colour, "stroke-width": o.width, fill: "none", "stroke-linecap": "round",
                    "stroke-linejoin": "round", "class": "draft" };
    if (o.shape === "line") h.node = el("line", Object.assign({ x1: a[0], y1: a[1], x2: b[0], y2: b[1] }, style), layer);
    else if (o.shape === "rect") h.node = el("rect", Object.assign({ x: Math.min(a[0], b[0]), y: Math.min(a[1], b[1]),
      width: Math.abs(b[0] - a[0]), height: Math.abs(b[1] - a[1]) }, style), layer);
    else if (o.shape === "circle") h.node = el("ellipse", Object.assign({ cx: (a[0] + b[0]) / 2, cy: (a[1] + b[1]) / 2,
      rx: Math.abs(b[0] - a[0]) / 2, ry: Math.abs(b[1] - a[1]) / 2 }, style), layer);
    else h.node = el("path", Object.assign({ d: "M" + p.map(function (q) { return q[0] + " " + q[1]; }).join(" L") }, style), layer);
  }

  async function post(path, body) {
    let answer = null;
    try {
      answer = await fetch(path, { method: "POST", credentials: "same-origin",
        headers: { "X-CSRFToken": csrf(), "HX-Request": "true" }, body: body || new URLSearchParams() });
    } catch (e) { answer = null; }
    if (answer && answer.ok) { notice(""); return true; }
    let text = "That did not reach the table: check the connection and try again.";
    if (answer) {
      const said = new DOMParser().parseFromString(await answer.text(), "text/html").getElementById("scene-notice");
      if (said && said.textContent.trim()) text = said.textContent;
    }
    notice(text);
    return false;
  }

  async function finishDrawing(h) {
    const list = h.scene.querySelector("[data-new]");
    let points = h.points;
    if (h.options.shape !== "freehand") points = [points[0], points[points.length - 1]];
    if (points.length < 2) points = [points[0], points[0]];
    const body = new URLSearchParams({ shape: h.options.shape, colour: h.options.colour, width: String(h.options.width),
                                       layer: h.options.layer, points: JSON.stringify(points) });
    const node = h.node;
    const done = list ? await post(list.dataset.new, body) : false;
    setTimeout(function () { if (node) node.remove(); }, done ? 1500 : 0);
  }

  document.addEventListener("pointerdown", function (e) {
    const scene = sceneOf(e.target);
    if (!scene || e.button !== 0 || !seated() || !e.target.closest(".scene-board")) return;
    const which = tool(scene);
    if (which === "erase") {
      const drawing = e.target.closest(".drawing");
      if (drawing && mayErase(drawing)) { e.preventDefault(); erase(scene, drawing); }
      return;
    }
    if (which !== "ruler" && which !== "draw" && which !== "ping") return;
    e.preventDefault();
    const board = scene.querySelector(".scene-board");
    board.setPointerCapture(e.pointerId);
    const p = at(scene, e);
    held = { kind: which, scene: scene, pointer: e.pointerId, points: [p, p], start: p };
    if (which === "ruler") {
      drawRuler(scene, "me", held.points, "");
      sendRuler();
      keep = setInterval(sendRuler, KEEP_ALIVE_MS);
    } else if (which === "draw") {
      held.options = options(scene);
      held.points = [p];
      preview(held);
    }
  });

  document.addEventListener("pointermove", function (e) {
    if (!held || e.pointerId !== held.pointer) return;
    const p = at(held.scene, e);
    if (held.kind === "ruler") {
      held.points = [held.start, p];
      drawRuler(held.scene, "me", held.points, "");
      rulerMoved();
    } else if (held.kind === "draw") {
      const last = held.points[held.points.length - 1];
      if (held.options.shape === "freehand") {
        if (Math.hypot(p[0] - last[0], p[1] - last[1]) >= 2 && held.points.length < 2000) held.points.push(p);
      } else {
        held.points = [held.start, p];
      }
      preview(held);
    }
  });

  function release(e) {
    if (!held || e.pointerId !== held.pointer) return;
    const h = held;
    held = null;
    clearInterval(keep); clearTimeout(flush); flush = null;
    if (h.kind === "ruler") {
      const read = h.scene.querySelector(".ruler-read");
      if (read) read.textContent = "Measured " + reading(h.scene, h.points[0], h.points[1]) + ". " + howCounted(h.scene);
      dropRuler(sceneId(h.scene), "me");
      send({ mark: "ruler", scene: sceneId(h.scene), done: true });
    } else if (h.kind === "ping" && e.type === "pointerup") {
      const p = at(h.scene, e);
      ping(h.scene, p);
    } else if (h.kind === "draw" && e.type === "pointerup") {
      finishDrawing(h);
    } else if (h.node) {
      h.node.remove();
    }
  }
  document.addEventListener("pointerup", release);
  document.addEventListener("pointercancel", release);

  function ping(scene, p) {
    if (!send({ mark: "ping", scene: sceneId(scene), points: [p] })) {
      notice("The ping needs the connection: wait for Live and try again.");
      return;
    }
    showPing(scene, p, "You");
  }

  // Ping for the keyboard: Ping pressed when it is pressed already pings the middle of what the
  // map shows now (seen before static/js/scene.js presses it: a listener of the capture phase)
  document.addEventListener("click", function (e) {
    const button = e.target.closest && e.target.closest('.map-toolbar [data-tool="ping"]');
    if (!button || button.getAttribute("aria-pressed") !== "true") return;
    const scene = sceneOf(button);
    if (!scene) return;
    const frame = scene.querySelector(".scene-frame");
    const box = scene.querySelector(".scene-board").getBoundingClientRect();
    const view = frame.getBoundingClientRect();
    const [w, h] = dims(scene);
    const cx = (Math.max(box.left, view.left) + Math.min(box.right, view.right)) / 2;
    const cy = (Math.max(box.top, view.top) + Math.min(box.bottom, view.bottom)) / 2;
    ping(scene, [Math.round(clamp((cx - box.left) / box.width * w, 0, w)), Math.round(clamp((cy - box.top) / box.height * h, 0, h))]);
  }, true);
  document.addEventListener("map:tool", function (e) {
    const help = e.target.querySelector(".ruler-read");
    if (help && e.detail.tool === "ruler") help.textContent = "Drag on the map to measure. " + howCounted(e.target);
    else if (help && e.detail.tool === "ping") help.textContent = "Click the map to ping it; press Ping again to ping the middle of what you see.";
    else if (help) help.textContent = "";
  });

  // Marks from the others, read off their frames (never swapped in)
  document.addEventListener("htmx:wsBeforeMessage", function (e) {
    const message = e.detail.message;
    if (typeof message !== "string" || message.indexOf('<p data-frame="mark"') !== 0) return;
    e.preventDefault();
    const p = new DOMParser().parseFromString(message, "text/html").querySelector("p");
    if (!p) return;
    const d = p.dataset;
    const key = "m" + d.from;
    if (d.mark === "ruler" && d.done === "true") {
      for (const layer of document.querySelectorAll(".live-layer")) {
        const g = layer.querySelector('[data-ruler="' + key + '"]');
        if (g) g.remove();
      }
      return;
    }
    const scene = document.getElementById("scene-" + d.scene);
    if (!scene) return;
    let points;
    try { points = JSON.parse(d.points); } catch (err) { return; }
    if (d.mark === "ruler" && points.length === 2) drawRuler(scene, key, points, d.by);
    else if (d.mark === "ping" && points.length === 1) showPing(scene, points[0], d.by);
  });

  // Erasing
  function mayErase(drawing) {
    return isGm() || (drawing.dataset.author !== "" && drawing.dataset.author === document.body.dataset.member);
  }
  function erase(scene, drawing) {
    const id = drawing.id.replace("drawing-", "");
    post("/tables/" + scene.dataset.table + "/drawings/" + id + "/erase/");
  }
  function listDrawings() {
    for (const scene of document.querySelectorAll(".scene")) {
      const list = scene.querySelector(".drawing-list ul");
      if (!list) continue;
      const mine = [...scene.querySelectorAll(".drawings-layer .drawing")].filter(mayErase);
      const want = mine.map(function (d) { return d.id; }).join(" ");
      if (list.dataset.shows === want) continue;
      list.dataset.shows = want;
      list.textContent = "";
      for (const d of mine) {
        const li = document.createElement("li");
        const name = d.dataset.what.charAt(0).toUpperCase() + d.dataset.what.slice(1) + " by " + (d.dataset.by || "someone") +
          (d.classList.contains("is-gm-layer") ? " (only you see it)" : "");
        li.textContent = name + " ";
        const b = document.createElement("button");
        b.type = "button";
        b.className = "small quiet";
        b.textContent = "Erase";
        b.setAttribute("aria-label", "Erase the " + name.charAt(0).toLowerCase() + name.slice(1));
        b.addEventListener("click", function () { erase(scene, d); });
        li.appendChild(b);
        list.appendChild(li);
      }
      if (!mine.length) {
        const li = document.createElement("li");
        li.className = "muted";
        li.textContent = "None yet.";
        list.appendChild(li);
      }
    }
  }
  for (const name of ["DOMContentLoaded", "htmx:wsAfterMessage", "htmx:afterSettle"]) {
    document.addEventListener(name, listDrawings);
  }

  document.addEventListener("click", function (e) {
    const button = e.target.closest && e.target.closest("[data-draw]");
    if (!button || !button.dataset.path) return;
    if (button.dataset.confirm && !window.confirm(button.dataset.confirm)) return;
    post(button.dataset.path);
  });
})();
