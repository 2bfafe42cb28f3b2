// The scene (templates/tabletop/scene.html): moving tokens and zooming; nothing else.
// - A token one may move (the GM's every one, a player's own character's) is dragged with the
//   pointer, or focused and moved with the arrow keys (Shift: bigger steps).
// - A move is posted with the page's CSRF header; everyone, the mover too, sees it when its
//   event comes back through the live feed, which redraws the token by its id. Meanwhile the
//   token stands where it was put; refused, it goes back, and the notice line says why.
// - Zoom: the scene fits the width; zoomed in, it pans inside its frame, never the page. On a
//   phone two fingers on the frame pinch the zoom, continuously from 1x to 4x; one finger pans.
// - The grid (templates/tabletop/map_grid.html): a token dropped or moved by the keyboard snaps
//   to it when the grid snaps, an odd-sized token to a cell's centre, an even-sized one to a
//   cell's corner, any token to a hex's centre; Alt, or "Move freely", places it anywhere. The
//   keyboard moves a token a cell a step on a grid. Snapping is the page's help, not a rule:
//   the table takes any point of the scene.
// - The GM's "Fit grid": a box dragged over one cell of the picture fills that scene's grid form.
// - "Token look": a token one may move opens the look dialog (size, colour, label).
// - The fight's marks (#scene-marks, drawn for this seat): the token of whoever acts now is
//   ringed, the out are crossed, and their names say so to a screen reader.
(function () {
  "use strict";
  const ZOOMS = [1, 1.5, 2, 3, 4];
  const MAX_ZOOM = 4;
  const HEX_RATIO = 2 / Math.sqrt(3); // a pointy-top hex's height over its width
  let zoom = 1;
  let free = false; // "Move freely" ticked: no snapping
  const pending = new Map(); // token id -> {x, y}: put there here, not yet seen back from the feed
  const timers = new Map(); // token id -> the timer that sends a keyboard move once keys rest
  let drag = null; // {id, pointerId, x0, y0, moved}
  let focused = null; // the id of the token that had focus before a frame swapped it

  function clamp(v, lo, hi) { return Math.min(hi, Math.max(lo, v)); }

  function csrf() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"] || ""; } catch (e) { return ""; }
  }

  function mayMove(token) {
    const body = document.body;
    if (body.dataset.seat === "gm") return true;
    return body.dataset.seat === "player" && token.dataset.controller !== "" &&
      token.dataset.controller === body.dataset.member;
  }

  function size(token) {
    const scene = token.closest(".scene");
    return scene ? [Number(scene.dataset.width), Number(scene.dataset.height), scene.dataset.table] : null;
  }

  function put(token, x, y) {
    const [w, h] = size(token);
    token.style.left = (100 * x / w) + "%";
    token.style.top = (100 * y / h) + "%";
  }

  function where(token) {
    const p = pending.get(token.id);
    return p ? [p.x, p.y] : [Number(token.dataset.x), Number(token.dataset.y)];
  }

  function notice(text) {
    const el = document.getElementById("scene-notice");
    if (el) el.textContent = text;
  }

  async function send(id, x, y) {
    const token = document.getElementById(id);
    if (!token) return;
    const [, , table] = size(token);
    let answer = null;
    try {
      answer = await fetch("/tables/" + table + "/tokens/" + id.replace("token-", "") + "/move/", {
        method: "POST", credentials: "same-origin",
        headers: { "X-CSRFToken": csrf(), "HX-Request": "true" },
        body: new URLSearchParams({ x: String(x), y: String(y) }),
      });
    } catch (e) { answer = null; }
    if (answer && answer.ok) { notice(""); return; }
    let text = "The move did not reach the table: check the connection and try again.";
    if (answer) {
      const said = new DOMParser().parseFromString(await answer.text(), "text/html").getElementById("scene-notice");
      if (said && said.textContent.trim()) text = said.textContent;
    }
    pending.delete(id);
    const now = document.getElementById(id);
    if (now) put(now, Number(now.dataset.x), Number(now.dataset.y));
    notice(text);
  }

  // The grid of a token's scene, as its layer says; null when it has none
  function gridOf(el) {
    const scene = el && el.closest(".scene");
    const layer = scene && scene.querySelector(".grid-layer");
    if (!layer || layer.dataset.kind === "none" || !(Number(layer.dataset.size) > 0)) return null;
    return { kind: layer.dataset.kind, size: Number(layer.dataset.size), x: Number(layer.dataset.x) || 0,
      y: Number(layer.dataset.y) || 0, snap: layer.dataset.snap === "true" };
  }

  // The point a token of ``cells`` a side snaps to, nearest (x, y)
  function snapped(g, x, y, cells) {
    if (g.kind === "hex") {
      const w = g.size, h = g.size * HEX_RATIO;
      const r0 = Math.round((y - g.y - h / 2) / (0.75 * h));
      let best = null;
      for (let r = r0 - 1; r <= r0 + 1; r++) {
        const shift = ((r % 2) + 2) % 2 ? w / 2 : 0;
        const c = Math.round((x - g.x - w / 2 - shift) / w);
        const cx = g.x + w / 2 + shift + c * w, cy = g.y + h / 2 + r * 0.75 * h;
        const d = Math.hypot(cx - x, cy - y);
        if (!best || d < best[2]) best = [cx, cy, d];
      }
      return [best[0], best[1]];
    }
    const off = cells % 2 === 1 ? g.size / 2 : 0; // odd: a cell's centre; even: a corner
    return [g.x + off + Math.round((x - g.x - off) / g.size) * g.size,
      g.y + off + Math.round((y - g.y - off) / g.size) * g.size];
  }

  function place(token, x, y, freely) {
    const g = gridOf(token);
    if (g && g.snap && !freely && !free) [x, y] = snapped(g, x, y, Number(token.dataset.size) || 1);
    return moveTo(token, x, y);
  }

  function moveTo(token, x, y) {
    const [w, h] = size(token);
    x = Math.round(clamp(x, 0, w));
    y = Math.round(clamp(y, 0, h));
    pending.set(token.id, { x: x, y: y });
    put(token, x, y);
    return [x, y];
  }

  // The map's tools: one pressed at a time; the figure's data-tool says which, and each
  // script acts only in its own (a token is dragged in "move")
  function tool(scene) { return (scene && scene.dataset.tool) || "move"; }
  function press(button) {
    const scene = button.closest(".scene");
    if (!scene) return;
    for (const b of scene.querySelectorAll("[data-tool]")) b.setAttribute("aria-pressed", String(b === button));
    scene.dataset.tool = button.dataset.tool;
    scene.dispatchEvent(new CustomEvent("map:tool", { bubbles: true, detail: { tool: button.dataset.tool } }));
  }
  document.addEventListener("click", function (e) {
    const button = e.target.closest && e.target.closest(".map-toolbar [data-tool]");
    if (button) press(button);
  });

  // Dragging, with the pointer captured by the token (touch pans the frame elsewhere)
  document.addEventListener("pointerdown", function (e) {
    const token = e.target.closest && e.target.closest(".token");
    if (!token || e.button !== 0 || !mayMove(token) || tool(token.closest(".scene")) !== "move") return;
    e.preventDefault(); // no text selection, no native image drag
    token.focus({ preventScroll: true });
    token.setPointerCapture(e.pointerId);
    drag = { id: token.id, pointerId: e.pointerId, x0: e.clientX, y0: e.clientY, moved: false };
  });
  document.addEventListener("pointermove", function (e) {
    if (!drag || e.pointerId !== drag.pointerId) return;
    if (!drag.moved && Math.hypot(e.clientX - drag.x0, e.clientY - drag.y0) < 4) return;
    const token = document.getElementById(drag.id); // a frame may have redrawn it meanwhile
    const board = token && token.closest(".scene-board");
    if (!board) return;
    drag.moved = true;
    token.classList.add("dragging");
    const r = board.getBoundingClientRect();
    const [w, h] = size(token);
    place(token, (e.clientX - r.left) / r.width * w, (e.clientY - r.top) / r.height * h, e.altKey);
  });
  function dropped(e) {
    if (!drag || e.pointerId !== drag.pointerId) return;
    const done = drag;
    drag = null;
    const token = document.getElementById(done.id);
    if (token) token.classList.remove("dragging");
    if (!done.moved || !token) return;
    const p = pending.get(done.id);
    if (e.type === "pointercancel" || !p) {
      pending.delete(done.id);
      put(token, Number(token.dataset.x), Number(token.dataset.y));
    } else if (p.x !== Number(token.dataset.x) || p.y !== Number(token.dataset.y)) {
      send(done.id, p.x, p.y);
    }
  }
  document.addEventListener("pointerup", dropped);
  document.addEventListener("pointercancel", dropped);

  // The keyboard: each arrow moves the token a step; the move is sent once the keys rest
  const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  document.addEventListener("keydown", function (e) {
    const token = e.target.closest && e.target.closest(".token");
    const arrow = ARROWS[e.key];
    if (!token || !arrow || !mayMove(token)) return;
    e.preventDefault();
    const [w, h] = size(token);
    const g = gridOf(token);
    let across, down;
    if (g) { // a cell a step (Shift: three)
      const n = e.shiftKey ? 3 : 1;
      across = g.size * n;
      down = (g.kind === "hex" ? 0.75 * g.size * HEX_RATIO : g.size) * n;
    } else {
      across = down = Math.max(1, Math.round(Math.max(w, h) / (e.shiftKey ? 10 : 40)));
    }
    const [x0, y0] = where(token);
    const [x, y] = place(token, x0 + arrow[0] * across, y0 + arrow[1] * down, e.altKey);
    token.scrollIntoView({ block: "nearest", inline: "nearest" });
    const id = token.id;
    clearTimeout(timers.get(id));
    timers.set(id, setTimeout(function () {
      timers.delete(id);
      const now = document.getElementById(id);
      if (now && (x !== Number(now.dataset.x) || y !== Number(now.dataset.y))) send(id, x, y);
      else pending.delete(id);
    }, 350));
  });

  // Zoom: the buttons step through ZOOMS; a pinch goes anywhere from 1x to 4x
  function applyZoom() {
    for (const board of document.querySelectorAll(".scene-board")) board.style.width = (100 * zoom) + "%";
    for (const frame of document.querySelectorAll(".scene-frame")) frame.dataset.zoom = zoom.toFixed(2);
    for (const button of document.querySelectorAll("[data-zoom]")) {
      button.disabled = (button.dataset.zoom === "in" && zoom >= MAX_ZOOM) ||
        (button.dataset.zoom !== "in" && zoom <= 1);
    }
  }
  document.addEventListener("click", function (e) {
    const button = e.target.closest && e.target.closest("[data-zoom]");
    if (!button) return;
    if (button.dataset.zoom === "in") zoom = ZOOMS.find(function (z) { return z > zoom + 0.01; }) || MAX_ZOOM;
    else if (button.dataset.zoom === "out") zoom = ZOOMS.slice().reverse().find(function (z) { return z < zoom - 0.01; }) || 1;
    else zoom = 1;
    applyZoom();
  });

  // The pinch: two fingers on the frame; the point between them stays where it is
  const fingers = new Map(); // pointer id -> [x, y]
  let pinch = null; // {d0, zoom0}
  function spread() {
    const [a, b] = Array.from(fingers.values());
    return [Math.hypot(a[0] - b[0], a[1] - b[1]), (a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  }
  document.addEventListener("pointerdown", function (e) {
    const frame = e.pointerType === "touch" && e.target.closest && e.target.closest(".scene-frame");
    if (!frame) return;
    fingers.set(e.pointerId, [e.clientX, e.clientY]);
    if (fingers.size === 2) {
      const [d] = spread();
      pinch = { d0: Math.max(d, 1), zoom0: zoom, frame: frame };
      frame.classList.add("pinching");
    }
  });
  document.addEventListener("pointermove", function (e) {
    if (!fingers.has(e.pointerId)) return;
    fingers.set(e.pointerId, [e.clientX, e.clientY]);
    if (!pinch || fingers.size !== 2) return;
    e.preventDefault();
    const [d, mx, my] = spread();
    const frame = pinch.frame;
    const r = frame.getBoundingClientRect();
    const px = (frame.scrollLeft + mx - r.left) / zoom, py = (frame.scrollTop + my - r.top) / zoom;
    zoom = clamp(pinch.zoom0 * d / pinch.d0, 1, MAX_ZOOM);
    applyZoom();
    frame.scrollLeft = px * zoom - (mx - r.left);
    frame.scrollTop = py * zoom - (my - r.top);
  }, { passive: false });
  function lifted(e) {
    if (!fingers.delete(e.pointerId)) return;
    if (fingers.size < 2 && pinch) { pinch.frame.classList.remove("pinching"); pinch = null; }
  }
  document.addEventListener("pointerup", lifted);
  document.addEventListener("pointercancel", lifted);

  // "Move freely": the toolbar's box, kept across redraws of the stage
  document.addEventListener("change", function (e) {
    if (e.target.classList && e.target.classList.contains("move-free-box")) free = e.target.checked;
  });

  // The GM's "Fit grid": a box dragged over one cell of the picture
  let fit = null; // {pointerId, board, x0, y0, box}
  function scenePoint(board, e) {
    const r = board.getBoundingClientRect();
    const scene = board.closest(".scene");
    return [(e.clientX - r.left) / r.width * Number(scene.dataset.width),
      (e.clientY - r.top) / r.height * Number(scene.dataset.height)];
  }
  document.addEventListener("pointerdown", function (e) {
    const board = e.target.closest && e.target.closest(".scene-board");
    if (!board || e.button !== 0 || tool(board.closest(".scene")) !== "grid") return;
    e.preventDefault();
    const [x, y] = scenePoint(board, e);
    const box = document.createElement("div");
    box.className = "grid-fit-box";
    board.appendChild(box);
    board.setPointerCapture(e.pointerId);
    fit = { pointerId: e.pointerId, board: board, x0: x, y0: y, box: box, x1: x, y1: y };
  });
  document.addEventListener("pointermove", function (e) {
    if (!fit || e.pointerId !== fit.pointerId) return;
    [fit.x1, fit.y1] = scenePoint(fit.board, e);
    const scene = fit.board.closest(".scene");
    const w = Number(scene.dataset.width), h = Number(scene.dataset.height);
    fit.box.style.left = (100 * Math.min(fit.x0, fit.x1) / w) + "%";
    fit.box.style.top = (100 * Math.min(fit.y0, fit.y1) / h) + "%";
    fit.box.style.width = (100 * Math.abs(fit.x1 - fit.x0) / w) + "%";
    fit.box.style.height = (100 * Math.abs(fit.y1 - fit.y0) / h) + "%";
  });
  function fitted(e) {
    if (!fit || e.pointerId !== fit.pointerId) return;
    const done = fit;
    fit = null;
    done.box.remove();
    if (e.type === "pointercancel") return;
    const sceneId = done.board.closest(".scene").id.replace("scene-", "");
    const form = document.getElementById("grid-form-" + sceneId);
    const side = Math.abs(done.x1 - done.x0);
    if (!form || side < 8) { notice("Drag a box over one cell of the picture to fit the grid to it."); return; }
    const kind = form.elements.kind.value === "none" ? "square" : form.elements.kind.value;
    const down = kind === "hex" ? 1.5 * side * HEX_RATIO : side; // the grid's period down
    const left = Math.min(done.x0, done.x1), top = Math.min(done.y0, done.y1);
    const round = function (v) { return String(Math.round(v * 100) / 100); };
    form.elements.kind.value = kind;
    form.elements.size.value = round(side);
    form.elements.x.value = round(((left % side) + side) % side);
    form.elements.y.value = round(((top % down) + down) % down);
    const details = form.closest("details");
    if (details) details.open = true;
    notice("");
    form.querySelector("button[type=submit]").focus();
  }
  document.addEventListener("pointerup", fitted);
  document.addEventListener("pointercancel", fitted);

  // "Token look": the dialog, for a token one may move
  let looking = null; // the token's id
  document.addEventListener("click", function (e) {
    const token = e.target.closest && e.target.closest(".token");
    const dialog = document.getElementById("token-look");
    if (!token || !dialog || tool(token.closest(".scene")) !== "style") return;
    if (!mayMove(token)) { notice("That token is not yours to change."); return; }
    looking = token.id;
    const f = dialog.querySelector("form");
    f.elements.size.value = token.dataset.size || "1";
    f.elements.colour.value = token.dataset.colour || "#6b5b95";
    f.elements.own.checked = !token.dataset.ownColour;
    f.elements.label.value = token.dataset.label || "";
    dialog.querySelector(".token-look-name").textContent = (token.getAttribute("aria-label") || "").split(",")[0];
    document.getElementById("token-look-error").textContent = "";
    dialog.showModal();
  });
  document.addEventListener("input", function (e) {
    if (e.target.id === "token-look-colour") document.getElementById("token-look-own").checked = false;
  });
  document.addEventListener("submit", async function (e) {
    const dialog = e.target.closest && e.target.closest("#token-look");
    if (!dialog) return;
    e.preventDefault();
    if (!e.submitter || e.submitter.value !== "save" || !looking) { dialog.close(); return; }
    const token = document.getElementById(looking);
    if (!token) { dialog.close(); return; }
    const f = e.target;
    const [, , table] = size(token);
    let answer = null;
    try {
      answer = await fetch("/tables/" + table + "/tokens/" + looking.replace("token-", "") + "/style/", {
        method: "POST", credentials: "same-origin", headers: { "X-CSRFToken": csrf(), "HX-Request": "true" },
        body: new URLSearchParams({ from: "dialog", size: f.elements.size.value, label: f.elements.label.value,
          colour: f.elements.own.checked ? "" : f.elements.colour.value }),
      });
    } catch (err) { answer = null; }
    if (answer && answer.ok) { dialog.close(); return; }
    let text = "The change did not reach the table: check the connection and try again.";
    if (answer) {
      const said = new DOMParser().parseFromString(await answer.text(), "text/html").getElementById("scene-notice");
      if (said && said.textContent.trim()) text = said.textContent;
    }
    document.getElementById("token-look-error").textContent = text;
  });

  // The fight's marks on the tokens this seat sees
  function applyMarks() {
    const marks = document.getElementById("scene-marks");
    const acting = new Set(((marks && marks.dataset.acting) || "").split(" ").filter(Boolean));
    const out = new Set(((marks && marks.dataset.out) || "").split(" ").filter(Boolean));
    for (const token of document.querySelectorAll(".token[data-character]")) {
      const who = token.dataset.character;
      if (token.dataset.name === undefined) token.dataset.name = token.getAttribute("aria-label") || "";
      const now = acting.has(who), gone = out.has(who);
      token.classList.toggle("acts-now", now);
      token.classList.toggle("is-out", gone);
      token.setAttribute("aria-label", token.dataset.name + (now ? ", acts now" : "") + (gone ? ", out" : ""));
    }
  }

  // After a frame: tokens redrawn keep what is on its way here, the focus, the zoom
  function settle() {
    for (const token of document.querySelectorAll(".token")) {
      token.classList.toggle("movable", mayMove(token));
      const p = pending.get(token.id);
      if (!p) continue;
      if (p.x === Number(token.dataset.x) && p.y === Number(token.dataset.y) && !timers.has(token.id)) {
        pending.delete(token.id); // the feed brought it back: it stands where it was put
      } else {
        put(token, p.x, p.y);
      }
    }
    if (drag) {
      const token = document.getElementById(drag.id);
      if (token) token.classList.add("dragging");
    }
    if (focused && (!document.activeElement || document.activeElement === document.body)) {
      const token = document.getElementById(focused);
      if (token) token.focus({ preventScroll: true });
    }
    focused = null;
    for (const board of document.querySelectorAll(".scene-board")) { // a token's cell, as the grid says
      const layer = board.querySelector(".grid-layer");
      if (layer && layer.dataset.cell) board.style.setProperty("--cell", layer.dataset.cell);
    }
    for (const box of document.querySelectorAll(".move-free-box")) box.checked = free;
    applyMarks();
    for (const scene of document.querySelectorAll(".scene")) {
      const pressed = scene.id === lastScene ? lastTool : "move";
      const button = scene.querySelector('.map-toolbar [data-tool="' + pressed + '"]');
      if (button && tool(scene) !== pressed) press(button);
    }
    applyZoom();
  }
  let lastScene = null, lastTool = "move";
  document.addEventListener("map:tool", function (e) { lastScene = e.target.id; lastTool = e.detail.tool; });
  document.addEventListener("htmx:wsBeforeMessage", function () {
    const active = document.activeElement;
    focused = active && active.classList && active.classList.contains("token") ? active.id : null;
  });
  document.addEventListener("htmx:wsAfterMessage", settle);
  document.addEventListener("htmx:afterSettle", settle);
  document.addEventListener("DOMContentLoaded", settle);
})();
