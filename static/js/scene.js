// The scene (templates/tabletop/scene.html): moving tokens and zooming; nothing else.
// - A token one may move (the GM's every one, a player's own character's) is dragged with the
//   pointer, or focused and moved with the arrow keys (Shift: bigger steps).
// - A move is posted with the page's CSRF header; everyone, the mover too, sees it when its
//   event comes back through the live feed, which redraws the token by its id. Meanwhile the
//   token stands where it was put; refused, it goes back, and the notice line says why.
// - Zoom: the scene fits the width; zoomed in, it pans inside its frame, never the page.
(function () {
  "use strict";
  const ZOOMS = [1, 1.5, 2, 3];
  let zoom = 1;
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
    moveTo(token, (e.clientX - r.left) / r.width * w, (e.clientY - r.top) / r.height * h);
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
    const step = Math.max(1, Math.round(Math.max(w, h) / (e.shiftKey ? 10 : 40)));
    const [x0, y0] = where(token);
    const [x, y] = moveTo(token, x0 + arrow[0] * step, y0 + arrow[1] * step);
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

  // Zoom
  function applyZoom() {
    for (const board of document.querySelectorAll(".scene-board")) board.style.width = (100 * zoom) + "%";
    for (const button of document.querySelectorAll("[data-zoom]")) {
      const at = ZOOMS.indexOf(zoom);
      button.disabled = (button.dataset.zoom === "in" && at === ZOOMS.length - 1) ||
        (button.dataset.zoom !== "in" && at === 0);
    }
  }
  document.addEventListener("click", function (e) {
    const button = e.target.closest && e.target.closest("[data-zoom]");
    if (!button) return;
    const at = ZOOMS.indexOf(zoom);
    if (button.dataset.zoom === "in") zoom = ZOOMS[Math.min(at + 1, ZOOMS.length - 1)];
    else if (button.dataset.zoom === "out") zoom = ZOOMS[Math.max(at - 1, 0)];
    else zoom = 1;
    applyZoom();
  });

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
