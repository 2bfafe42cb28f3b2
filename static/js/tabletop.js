// The table's live glue: only what htmx cannot do by itself.
// - resume: on every (re)connect, tell the server the last position we rendered;
// - dedupe: drop a frame whose position we already have (a replay racing the live feed);
// - upsert: a row for a new member or character is appended where it belongs;
// - act: every action's form or button (roll, chat, decks and cards, a game's moves and checks)
//   goes over the open socket as an act frame (an htmx POST while it is not);
// - connection status, copy buttons, focus and log scrolling.
(function () {
  "use strict";
  // A position is this viewer's own number for an event: "12", or "12.2" for the second event
  // only they (and the GM) see after public event 12 (docs/protocol.md). It orders as the log.
  let lastSeq = "0";
  let live = null; // the socket's wrapper while it is open
  let nextRef = 0;
  const pending = new Map(); // ref -> what was sent: the form or button, its target, the action
  let tooBigCloses = 0; // closes for a frame too big (1009) since the last answer to an action
  function answerTimeoutMs() {
    const socket = document.getElementById("socket");
    return Number((socket && socket.dataset.answerTimeoutMs) || 15000);
  }

  function focusInput(form) {
    const input = form.querySelector("input[type=text], input:not([type])");
    if (input) input.focus({ preventScroll: true }); // the page stays where the player is (issue 38)
  }

  function showError(form, message) {
    let out = form.querySelector(".form-error");
    if (!message) {
      if (out) out.remove();
      return;
    }
    if (!out) {
      out = document.createElement("p");
      out.className = "form-error";
      out.setAttribute("role", "alert");
      form.appendChild(out);
    }
    out.textContent = message;
  }

  // Focus goes back to the form only if it was there or nowhere: a player who moved on to
  // another control while the answer travelled keeps their place.
  function focusIsFree(form) {
    const active = document.activeElement;
    return !active || active === document.body || !document.contains(active) || form.contains(active);
  }

  // An action done: the form is emptied for the next (the event itself comes with the feed).
  function done(form) {
    showError(form, "");
    for (const input of form.querySelectorAll("input[type=text], input:not([type])")) input.value = "";
    if (focusIsFree(form)) focusInput(form);
  }

  function settle(elt, busy) {
    elt.toggleAttribute("aria-busy", busy);
    const buttons = elt.matches("button") ? [elt] : elt.querySelectorAll("button");
    for (const button of buttons) button.disabled = busy;
  }

  // The action an htmx POST asks for, read from the path it posts to (tabletop/views/base.py:
  // socket_paths): the path's own (null for one only posted, the GM's peek), else the prefix
  // of its kind's path and the rest of the path ("/tables/1/commands/draw/": "move.draw").
  let actPaths = null;
  function actionAt(path) {
    if (actPaths === null) {
      const data = document.getElementById("act-paths");
      actPaths = data ? JSON.parse(data.textContent) : {};
    }
    const has = function (key) { return Object.prototype.hasOwnProperty.call(actPaths, key); };
    if (has(path)) return actPaths[path];
    const cut = path.lastIndexOf("/", path.length - 2) + 1;
    const rest = path.slice(cut, -1);
    return path.endsWith("/") && rest && has(path.slice(0, cut)) ? actPaths[path.slice(0, cut)] + rest : null;
  }

  // What answers an action on the page: the element it swaps (a notice line, or the form itself
  // for the dice box and the chat); its current one, should a swap have replaced it meanwhile.
  function shownIn(sent) {
    const target = sent.target && sent.target.id ? document.getElementById(sent.target.id) || sent.target : sent.target;
    return target && target !== sent.elt && !target.contains(sent.elt) ? target : null;
  }

  function say(sent, message) {
    const notice = shownIn(sent);
    if (notice) notice.textContent = message;
    else if (sent.elt.matches("form")) showError(sent.elt, message);
  }

  // An htmx POST to an action's path goes as an act frame while the socket is open (a form,
  // a button with its hx-vals, the cards picked for a form): the same action, the same checks
  // and answers (tabletop/actions.py), without the cost of a request; else it goes as posted.
  document.addEventListener("htmx:beforeRequest", function (e) {
    const config = e.detail.requestConfig;
    const action = live && config && config.verb === "post" ? actionAt(config.path) : null;
    const elt = config.elt;
    if (!action || !elt.matches("form, button")) return; // a script's own htmx.ajax posts
    e.preventDefault();
    if (elt.hasAttribute("aria-busy")) return; // one answer awaited at a time
    const args = {};
    for (const [name, value] of config.formData) {
      if (name === "csrfmiddlewaretoken") continue;
      const text = String(value);
      // a field sent more than once (the deal's players, cards picked) goes as a list
      args[name] = Object.prototype.hasOwnProperty.call(args, name) ? [].concat(args[name], text) : text;
    }
    const ref = "f" + (++nextRef);
    const sent = { elt: elt, target: e.detail.target, action: action, path: config.path };
    pending.set(ref, sent);
    settle(elt, true);
    live.send(JSON.stringify({ type: "act", ref: ref, action: action, args: args }));
    setTimeout(function () { // an answer that never comes must not lock the form
      if (pending.get(ref) !== sent) return;
      pending.delete(ref);
      settle(elt, false);
      say(sent, "No answer yet: check the log before sending again.");
    }, answerTimeoutMs());
  });

  function answered(message) {
    const el = new DOMParser().parseFromString(message, "text/html").getElementById("socket-ack");
    const sent = el && pending.get(el.dataset.ref);
    if (!sent) return;
    tooBigCloses = 0;
    pending.delete(el.dataset.ref);
    const form = sent.elt;
    settle(form, false);
    if (el.dataset.outcome === "done") {
      if (shownIn(sent)) say(sent, "");
      else if (form.matches("form")) done(form);
    } else {
      say(sent, el.textContent);
      if (!shownIn(sent) && form.matches("form") && focusIsFree(form)) focusInput(form);
    }
    // the event the action caused may have redrawn the form (a panel's) before its answer came:
    // the answer is told where the form is now, or to the document
    const now = document.contains(form) ? form : (form.id && document.getElementById(form.id)) || document;
    now.dispatchEvent(new CustomEvent("tabletop:answered", {
      bubbles: true,
      detail: { outcome: el.dataset.outcome, seq: el.dataset.seq || "", error: el.dataset.error || "",
                action: sent.action, path: sent.path, message: el.textContent },
    }));
  }

  // What a frame of the feed is, read from its first element alone (tabletop/feed/frames.py):
  // its kind (data-frame: event, snapshot, ack, error, pong, caught-up; "" for a frame that only
  // swaps, as presence does) and the log position it brings the page to (data-frame-seq).
  const FIRST_TAG = /^\s*<[a-z]+\b([^>]*)>/;
  function envelope(message) {
    const tag = typeof message === "string" ? FIRST_TAG.exec(message) : null;
    const attrs = tag ? tag[1] : "";
    const kind = /\bdata-frame="([a-z-]+)"/.exec(attrs);
    const seq = /\bdata-frame-seq="(\d+(?:\.\d+)?)"/.exec(attrs);
    return { kind: kind ? kind[1] : "", seq: seq ? seq[1] : null };
  }

  function isAfter(a, b) {
    const [an, ak] = a.split(".").map(Number);
    const [bn, bk] = b.split(".").map(Number);
    return an > bn || (an === bn && (ak || 0) > (bk || 0));
  }

  function setConnection(state, text) {
    const el = document.getElementById("connection");
    if (el) {
      el.dataset.state = state;
      el.textContent = text;
    }
  }

  // The log keeps its newest line in view. Reading its height lays the page out, so it is read
  // once a frame, just before the browser paints (when it lays the page out anyway), not once a
  // frame of the socket: a resume's many frames, or the page's load, cost one layout, not many.
  let logScrollQueued = false;
  function scrollLog() {
    if (logScrollQueued) return;
    logScrollQueued = true;
    requestAnimationFrame(function () {
      logScrollQueued = false;
      const log = document.getElementById("log");
      if (log) log.scrollTop = log.scrollHeight;
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    const socket = document.getElementById("socket");
    if (socket) lastSeq = socket.dataset.lastSeq || "0";
    scrollLog();
  });

  let liveSocket = null; // the WebSocket itself (the extension's wrapper cannot close it)
  document.addEventListener("htmx:wsOpen", function (e) {
    setConnection("catching-up", "Catching up…");
    live = e.detail.socketWrapper;
    liveSocket = e.detail.event ? e.detail.event.target : null;
    refusedChecked = 0;
    heard();
    live.send(JSON.stringify({ type: "resume", after: lastSeq }));
  });

  // The heartbeat: a socket quiet for a while is asked for a pong; one that does not answer is
  // taken for dead (a laptop asleep, a dropped network): the badge says Reconnecting at once,
  // the socket is closed and opened again, and the resume brings the log up to date. (daphne
  // pings the page the other way, and drops a socket whose page stopped answering.)
  // A cut network shows as Reconnecting within 10 s: a ping after 3 s of quiet, dead without a
  // pong 3 s later, checked each second (3 + 1 + 3 + 1 = 8 s at worst). A ping is a few bytes
  // on a quiet socket only; any frame heard counts as the answer.
  const PING_AFTER_MS = 3000;
  const PONG_WITHIN_MS = 3000;
  let lastHeard = 0;
  let pingSent = 0;
  let deadSocket = null; // the wrapper this page closed for want of a pong
  function heard() { lastHeard = Date.now(); pingSent = 0; }
  function declareDead(why) {
    setConnection("reconnecting", "Reconnecting…");
    deadSocket = live;
    pingSent = 0;
    if (liveSocket) liveSocket.close(4000, why);
  }
  function heartbeatMs() {
    const socket = document.getElementById("socket");
    return Number((socket && socket.dataset.heartbeatMs) || 0);
  }
  setInterval(function () {
    if (!live) return;
    const scale = heartbeatMs() ? heartbeatMs() / PING_AFTER_MS : 1; // the tests shorten it
    const now = Date.now();
    if (pingSent && now - pingSent > PONG_WITHIN_MS * scale) {
      declareDead("no answer to the heartbeat");
      return;
    }
    if (!pingSent && now - lastHeard > PING_AFTER_MS * scale) {
      pingSent = now;
      live.send(JSON.stringify({ type: "ping" }));
    }
  }, 1000);

  // The browser knows the network is gone before any heartbeat does: the socket is taken for
  // dead at once, and reconnected (the extension retrying) until the network is back.
  window.addEventListener("offline", function () {
    if (live) declareDead("the network went offline");
  });

  // A socket refused at its handshake closes without having opened (the browser gives 1006 and
  // no reason), whether the server is down or this seat was removed while the page missed the
  // close that said so (a heartbeat that gave up first). The page asks the table page itself:
  // a 403 or 404 means the seat is gone, so it says so and stops reconnecting; anything else
  // (no answer, a 5xx) leaves it reconnecting. Asked once per refused run, and again only
  // after 10 s.
  let refusedChecked = 0;
  let seatGone = false; // told so: a retry the extension had already timed is not news
  function askWhyRefused(socketElt) {
    const now = Date.now();
    if (now - refusedChecked < 10000) return;
    refusedChecked = now;
    fetch(window.location.pathname, { credentials: "same-origin", cache: "no-store", redirect: "manual" })
      .then(function (answer) {
        if (answer.status !== 403 && answer.status !== 404) return;
        seatGone = true;
        setConnection("closed", "You are no longer at this table.");
        if (socketElt && socketElt.parentNode) socketElt.remove(); // the extension stops with it
      })
      .catch(function () {}); // the network is down: keep reconnecting
  }

  document.addEventListener("htmx:wsClose", function (e) {
    const closed = e.detail.event && e.detail.event.target;
    if (seatGone) return;
    if (closed && closed !== liveSocket) {
      // never opened: refused at the handshake, or no server to reach
      setConnection("reconnecting", "Reconnecting…");
      askWhyRefused(e.target);
      return;
    }
    live = null;
    // An action sent just before the drop may or may not have been done: say so, never resend.
    for (const sent of pending.values()) {
      settle(sent.elt, false);
      say(sent, "The connection dropped before the answer came: check the log before sending again.");
      (document.contains(sent.elt) ? sent.elt : document).dispatchEvent(new CustomEvent("tabletop:answered", { bubbles: true, detail: {
        outcome: "dropped", seq: "", error: "", action: sent.action, path: sent.path, message: "" } }));
    }
    pending.clear();
    const code = e.detail.event && e.detail.event.code;
    if (code === 4403) {
      setConnection("closed", "You are no longer at this table.");
      return;
    }
    setConnection("reconnecting", "Reconnecting…");
    if (deadSocket === e.detail.socketWrapper) {
      // closed by this page for want of a pong: the extension reconnects only after an
      // abnormal close, so the page does
      deadSocket = null;
      const wrapper = e.detail.socketWrapper;
      const socketElt = e.target;
      setTimeout(function () { if (document.body.contains(socketElt)) wrapper.reconnect(); }, 500);
      return;
    }
    if (code === 1009) {
      // The server closed on a frame too big (this page sends none; something else in the
      // page might). htmx's ws extension reconnects only after 1006/1011/1012/1013, so the
      // page does, after a pause that doubles each time; the frame is not sent again, and
      // the resume brings the log up to date.
      const wrapper = e.detail.socketWrapper;
      const socketElt = e.target;
      const delay = 1000 * Math.pow(2, Math.min(tooBigCloses++, 5));
      setTimeout(function () {
        if (document.body.contains(socketElt)) wrapper.reconnect();
      }, delay);
    }
  });

  document.addEventListener("htmx:wsBeforeMessage", function (e) {
    const message = e.detail.message;
    heard();
    const frame = envelope(message);
    if (frame.kind === "pong") {
      e.preventDefault();
    } else if (frame.kind === "caught-up") {
      e.preventDefault();
      setConnection("live", "Live");
    } else if (frame.kind === "ack") {
      e.preventDefault(); // an answer to this page's own action: nothing to swap
      answered(message);
    } else if (frame.kind === "event" && !isAfter(frame.seq, lastSeq)) {
      e.preventDefault(); // a line the page holds already (a replay that crossed a live frame)
    }
  });

  document.addEventListener("htmx:wsAfterMessage", function (e) {
    const frame = envelope(e.detail.message);
    const seq = frame.kind === "event" || frame.kind === "snapshot" ? frame.seq : null;
    if (seq !== null && isAfter(seq, lastSeq)) {
      // a line that came live (not at the page's load, not a replay's backlog) rolls its dice in
      const entry = document.getElementById("event-" + seq);
      if (entry && live && document.getElementById("connection").dataset.state === "live") entry.classList.add("fresh");
      lastSeq = seq;
    }
    const socket = document.getElementById("socket");
    if (socket) socket.dataset.lastSeq = String(lastSeq);
    scrollLog();
  });

  // A frame may carry an item a list does not hold yet (a new member, character, deck, hand):
  // its element names the list in data-upsert-into. Before htmx swaps the frame in, an empty
  // element with its id is put at the end of that list, so the swap replaces it like any other
  // item instead of failing for want of a target (issue 13, bug 9: htmx:oobErrorNoTarget).
  function makeRoomFor(html) {
    if (typeof html !== "string" || html.indexOf("data-upsert-into") === -1) return;
    const parsed = document.createElement("template");
    parsed.innerHTML = html;
    for (const item of parsed.content.querySelectorAll("[data-upsert-into][id]")) {
      if (document.getElementById(item.id)) continue;
      const list = document.querySelector(item.dataset.upsertInto);
      if (!list) continue;
      const room = document.createElement(item.tagName);
      room.id = item.id;
      list.appendChild(room);
      for (const empty of list.querySelectorAll("[data-empty]")) empty.remove();
    }
  }
  document.addEventListener("htmx:wsBeforeMessage", function (e) {
    if (!e.defaultPrevented) makeRoomFor(e.detail.message);
  });
  document.addEventListener("htmx:beforeSwap", function (e) {
    if (e.detail.shouldSwap && e.detail.xhr) makeRoomFor(e.detail.xhr.responseText);
  });

  // A box redrawn live while someone is filling one of its forms (the GM's campaign box:
  // data-keeps-input) keeps what they had open and typed: its open <details>, its fields'
  // values (by id) and the focus. A redraw comes with every move of the table's procedure.
  const keptInput = new Map();
  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    const target = e.detail.target;
    if (!target || !target.id || !target.hasAttribute("data-keeps-input")) return;
    const values = {};
    for (const el of target.querySelectorAll("input[id], select[id], textarea[id]")) {
      if (el.type !== "hidden") values[el.id] = el.value;
    }
    const open = [...target.querySelectorAll("details[open]")].map(function (d) { return d.className; });
    const focused = target.contains(document.activeElement) ? document.activeElement.id : "";
    keptInput.set(target.id, {values: values, open: open, focused: focused});
  });
  document.addEventListener("htmx:oobAfterSwap", function (e) {
    const id = e.detail.target && e.detail.target.id;
    const kept = id && keptInput.get(id);
    const box = kept && document.getElementById(id);
    if (!box) return;
    keptInput.delete(id);
    for (const details of box.querySelectorAll("details")) {
      if (kept.open.includes(details.className)) details.open = true;
    }
    for (const [fieldId, value] of Object.entries(kept.values)) {
      const field = document.getElementById(fieldId);
      if (!field || !box.contains(field)) continue;
      if (field.tagName === "SELECT" && ![...field.options].some(function (o) { return o.value === value; })) continue;
      field.value = value;
    }
    const focus = kept.focused && document.getElementById(kept.focused);
    if (focus && box.contains(focus)) focus.focus({ preventScroll: true });
  });

  // A folded section (a <details> with an id: "Other moves", the GM's tools) stays as the viewer
  // left it across live redraws: each one opened or closed by hand is remembered by its id and
  // set so again after every swap (a panel is redrawn with every move at the table).
  const folds = new Map();
  const touched = new Set();
  document.addEventListener("click", function (e) {
    const summary = e.target.closest && e.target.closest("summary");
    const details = summary && summary.parentElement;
    if (details && details.tagName === "DETAILS" && details.id) touched.add(details.id);
  }, true);
  document.addEventListener("toggle", function (e) {
    const details = e.target;
    if (details.tagName === "DETAILS" && touched.has(details.id)) folds.set(details.id, details.open);
  }, true);
  function keepFolds() {
    for (const [id, open] of folds) {
      const details = document.getElementById(id);
      if (!details || details.tagName !== "DETAILS") {
        // gone from the page (a form for a moment that passed: "Start a combat" once the fight
        // is on): forgotten, so when it comes back it comes back folded, as first drawn
        folds.delete(id);
        touched.delete(id);
      } else if (details.open !== open) details.open = open;
    }
  }
  document.addEventListener("htmx:oobAfterSwap", keepFolds);
  document.addEventListener("htmx:afterSettle", keepFolds);
  document.addEventListener("htmx:wsAfterMessage", keepFolds);

  // Your turn: the banner says so (drawn for this seat: every seat the step waits for reads
  // "Your turn"); the tab's title says it too, so a player on another tab sees it is their move.
  const plainTitle = document.title;
  function markTurn() {
    const yours = document.querySelector("#turn-banner:not([hidden]) .turn-mine") !== null;
    document.title = yours ? "\u25B6 Your turn \u00B7 " + plainTitle : plainTitle;
    document.body.classList.toggle("my-turn", yours);
  }
  document.addEventListener("DOMContentLoaded", markTurn);
  document.addEventListener("htmx:oobAfterSwap", function (e) {
    if (e.detail.target && e.detail.target.id === "turn-banner") markTurn();
  });
  document.addEventListener("htmx:wsAfterMessage", markTurn);

  // The GM puts peeked cards back in another order by dragging them or with their arrows; the
  // form's hidden "order" (top first) follows the cards as they lie.
  function syncOrder(list) {
    const form = list.closest("form");
    const input = form && form.querySelector("input[name=order]");
    if (input) input.value = [...list.children].map(function (li) { return li.dataset.cardId; }).join(", ");
  }
  document.addEventListener("click", function (e) {
    const button = e.target.closest(".reorder [data-move]");
    if (!button) return;
    const item = button.closest("li");
    const list = item.parentElement;
    if (button.dataset.move === "-1" && item.previousElementSibling) list.insertBefore(item, item.previousElementSibling);
    if (button.dataset.move === "1" && item.nextElementSibling) list.insertBefore(item.nextElementSibling, item);
    syncOrder(list);
    button.focus();
  });
  let dragged = null;
  document.addEventListener("dragstart", function (e) {
    dragged = e.target.closest && e.target.closest(".reorder > li");
    if (dragged && e.dataTransfer) e.dataTransfer.effectAllowed = "move";
  });
  document.addEventListener("dragover", function (e) {
    if (dragged && e.target.closest && e.target.closest(".reorder")) e.preventDefault();
  });
  document.addEventListener("drop", function (e) {
    const onto = dragged && e.target.closest && e.target.closest(".reorder > li");
    if (!onto || onto === dragged || onto.parentElement !== dragged.parentElement) return;
    e.preventDefault();
    const list = onto.parentElement;
    const before = [...list.children].indexOf(dragged) > [...list.children].indexOf(onto) ? onto : onto.nextElementSibling;
    list.insertBefore(dragged, before);
    syncOrder(list);
  });
  document.addEventListener("dragend", function () { dragged = null; });

  // A refusal of the whole request (the seat, a thing gone, a stale page) lands in the page's
  // notice line (tabletop/views/errors.py); it fades after a while, as a spoken alert would.
  let noticeTimer = null;
  document.addEventListener("htmx:afterSwap", function (e) {
    const notice = document.getElementById("page-notice");
    if (!notice || notice.hidden) return;
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(function () { notice.hidden = true; }, 12000);
  });

  // The same forms posted (socket down): 204 when done, the form again with its error if not.
  document.addEventListener("htmx:afterRequest", function (e) {
    const elt = e.detail.requestConfig && e.detail.requestConfig.elt;
    if (elt && elt.matches && elt.matches("form") && e.detail.xhr && e.detail.xhr.status === 204) done(elt);
  });

  document.addEventListener("htmx:afterSettle", function (e) {
    const elt = e.detail.requestConfig && e.detail.requestConfig.elt;
    if (!elt || (elt.id !== "roll-form" && elt.id !== "chat-form")) return;
    const form = document.getElementById(elt.id); // the swapped-in form with its error
    if (form && focusIsFree(form)) focusInput(form);
  });

  document.addEventListener("click", function (e) {
    const button = e.target.closest("[data-copy]");
    if (!button) return;
    const input = document.querySelector(button.dataset.copy);
    if (!input) return;
    const done = function () {
      button.dataset.copied = "true";
      button.firstChild.textContent = "Copied ";
      setTimeout(function () { button.firstChild.textContent = "Copy "; }, 2000);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done, function () { input.select(); });
    } else {
      input.select();
      document.execCommand("copy");
      done();
    }
  });
})();

// A list that offers a player only the characters they play (select.mine-only, each option's
// data-controller naming its player): the page's own render leaves the others out, but a live
// redraw is drawn once for every player, so the others' options are taken out here (the page's
// CSS hides them meanwhile, and the server refuses them either way).
(function () {
  "use strict";
  function prune() {
    const body = document.body;
    if (body.dataset.seat !== "player") return;
    document.querySelectorAll("select.mine-only option").forEach(function (option) {
      if (option.dataset.controller !== body.dataset.member) option.remove();
    });
  }
  document.addEventListener("DOMContentLoaded", prune);
  document.addEventListener("htmx:afterSettle", prune);
  document.addEventListener("htmx:oobAfterSwap", prune);
  document.addEventListener("htmx:wsAfterMessage", prune);
})();

// Cards picked from a hand for a game's form (an attack, a dodge): while the page shows a form
// with data-picks="<field>", clicking a card in a hand one sees (or Enter/Space on it) picks it
// or unpicks it, and that form sends the picked cards' ids, in the order picked, as <field>:
// from the hand of the member its data-picks-from names (any hand when it names none). Picks
// outlive a hand's redraw while the card is still in it; a form's picks clear once it is done.
// Systems use it through their templates alone (docs/adding-a-system.md, "Cards from a hand").
(function () {
  "use strict";
  let picks = []; // {holder, card}, in the order picked

  function same(p, el) { return p.card === el.dataset.card && p.holder === el.dataset.holder; }

  function mark() {
    const armed = document.querySelector("[data-picks]") !== null;
    const shown = document.querySelectorAll(".card-pick");
    picks = picks.filter(function (p) { return [...shown].some(function (el) { return same(p, el); }); });
    for (const el of shown) {
      const at = picks.findIndex(function (p) { return same(p, el); });
      // a pick is the button: no tab stop of the card's own inside it; its meaning describes it
      const face = el.querySelector(".card-face");
      const meaning = el.querySelector(".card-meaning");
      if (!armed) {
        for (const a of ["role", "tabindex", "aria-pressed", "aria-label", "aria-describedby", "data-pick-order"]) el.removeAttribute(a);
        if (face) face.setAttribute("tabindex", "0");
        continue;
      }
      if (face) face.removeAttribute("tabindex");
      if (meaning) {
        meaning.id = "pick-meaning-" + el.dataset.holder + "-" + el.dataset.card;
        el.setAttribute("aria-describedby", meaning.id);
      }
      const name = el.querySelector(".card-name");
      el.setAttribute("role", "button");
      el.setAttribute("tabindex", "0");
      el.setAttribute("aria-label", "Pick " + (name ? name.textContent : el.dataset.card));
      el.setAttribute("aria-pressed", at >= 0 ? "true" : "false");
      el.dataset.pickOrder = at >= 0 ? String(at + 1) : "";
    }
  }

  function toggle(el) {
    // the pick is what the tap or the click was for: the card's meaning closes (until the
    // pointer or the focus leaves it), and on a phone it does not stand over the page (issue 38)
    const face = el.querySelector(".card-face");
    if (face) face.dataset.quiet = "1";
    const at = picks.findIndex(function (p) { return same(p, el); });
    if (at >= 0) picks.splice(at, 1);
    else picks.push({ holder: el.dataset.holder, card: el.dataset.card });
    mark();
    document.dispatchEvent(new CustomEvent("tabletop:picked", { detail: { picks: picks.slice() } }));
  }

  document.addEventListener("click", function (e) {
    const el = e.target.closest && e.target.closest(".card-pick[role=button]");
    if (el) toggle(el);
  });
  document.addEventListener("keydown", function (e) {
    if (e.key !== "Enter" && e.key !== " ") return;
    const el = e.target.closest && e.target.closest(".card-pick[role=button]");
    if (!el) return;
    e.preventDefault();
    toggle(el);
  });

  function formOf(elt) { return elt && elt.closest ? elt.closest("[data-picks]") : null; }
  function mine(form, p) { return !form.dataset.picksFrom || p.holder === form.dataset.picksFrom; }

  document.addEventListener("htmx:configRequest", function (e) {
    const form = formOf(e.detail.elt);
    if (!form) return;
    e.detail.parameters[form.dataset.picks] = picks.filter(function (p) { return mine(form, p); })
      .map(function (p) { return p.card; });
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    const form = formOf(e.detail.elt);
    // only the form's own request uses its picks up (a button of its own inside it, such as
    // one asking for odds, leaves them picked); a refusal (a 4xx, which htmx calls successful
    // here) uses nothing
    const xhr = e.detail.xhr;
    if (!form || form !== e.detail.elt || !e.detail.successful || (xhr && xhr.status >= 300)) return;
    picks = picks.filter(function (p) { return !mine(form, p); });
    mark();
  });
  document.addEventListener("tabletop:answered", function (e) { // the same form sent as an act frame
    const form = formOf(e.target);
    if (!form || form !== e.target || e.detail.outcome !== "done") return;
    picks = picks.filter(function (p) { return !mine(form, p); });
    mark();
  });
  document.addEventListener("DOMContentLoaded", mark);
  document.addEventListener("htmx:afterSettle", mark);
  document.addEventListener("htmx:wsAfterMessage", mark);
})();

// Cards on the felt: a card come live (not at load or in a replay) is .fresh and slides in; a
// card's meaning is kept on screen, Escape hides it; a docked hand gets its forms' buttons.
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
  // A meaning fixed to the screen (a docked hand scrolls and clips, so its meanings are fixed:
  // a system's panel says so) is put by its card here, above it or else below it.
  const FIXED = ["top", "left", "bottom", "translate"];
  function pin(f, box) {
    const c = (f.closest(".card-pick") || f).getBoundingClientRect(), r = box.getBoundingClientRect();
    const w = document.documentElement.clientWidth;
    const top = c.top - r.height - 4 >= 4 ? c.top - r.height - 4 : c.bottom + 4;
    const left = Math.min(Math.max(4, c.left + c.width / 2 - r.width / 2), w - 4 - r.width);
    box.style.setProperty("top", top + "px");
    box.style.setProperty("left", left + "px");
    box.style.setProperty("bottom", "auto");
    box.style.setProperty("translate", "none");
  }
  function placeFace(f) {
    const box = f && f.querySelector(".card-meaning");
    if (!box) return;
    f.style.removeProperty("--nudge");
    delete f.dataset.below;
    for (const p of FIXED) box.style.removeProperty(p);
    requestAnimationFrame(() => {
      let r = box.getBoundingClientRect();
      if (r.width < 2) return;
      if (getComputedStyle(box).position === "fixed") { pin(f, box); return; }
      if (r.top < 4) { f.dataset.below = "1"; r = box.getBoundingClientRect(); }
      const w = document.documentElement.clientWidth;
      const n = r.left < 4 ? 4 - r.left : (r.right > w - 4 ? w - 4 - r.right : 0);
      if (n) f.style.setProperty("--nudge", n + "px");
    });
  }
  // A card come under a pointer that did not move (the card beside it played, a hand redrawn)
  // keeps its meaning closed until the pointer moves: a meaning opens for the card one points at,
  // not for the one that slid under the pointer over "Your hand" (issue 38). Chromium tells of
  // such a card with a mouseover and no pointer move.
  let still = false;
  const redrawn = () => { still = true; };
  for (const name of ["htmx:wsAfterMessage", "htmx:afterSettle"]) document.addEventListener(name, redrawn);
  document.addEventListener("pointermove", (e) => {
    still = false;
    const f = faceOf(e.target);
    if (f && f.dataset.quiet === "still") { delete f.dataset.quiet; placeFace(f); }
  }, { passive: true });
  document.addEventListener("pointerdown", () => { still = false; }, { passive: true });
  function place(e) {
    const f = faceOf(e.target);
    if (f && still && e.type === "mouseover") f.dataset.quiet = "still";
    placeFace(f);
  }
  document.addEventListener("focusin", place);
  document.addEventListener("mouseover", place);
  // a fixed meaning follows its card when the page or its hand scrolls
  document.addEventListener("scroll", () => {
    for (const f of document.querySelectorAll(":is(.card-face, .card-pick):is(:hover, :focus)")) {
      const face = f.matches(".card-face") ? f : f.querySelector(".card-face"), box = face && face.querySelector(".card-meaning");
      if (box && box.style.top) pin(face, box);
    }
  }, { capture: true, passive: true });
  document.addEventListener("keydown", (e) => {
    const f = e.key === "Escape" && faceOf(e.target);
    if (f) f.dataset.quiet = "1";
  });
  // only leaving the card opens its meaning again, not moving from one of its parts to another
  const unquiet = (e) => {
    const f = faceOf(e.target);
    if (f && !(e.relatedTarget && faceOf(e.relatedTarget) === f)) delete f.dataset.quiet;
  };
  document.addEventListener("focusout", unquiet);
  document.addEventListener("mouseout", unquiet);

  function bars() {
    for (const bar of document.querySelectorAll("[data-pick-bar]")) {
      const who = bar.dataset.pickBar;
      const forms = [...document.querySelectorAll("form[data-picks-label]")].filter((f) =>
        (!f.dataset.picksFrom || f.dataset.picksFrom === who) && f.offsetParent && f.querySelector("[type=submit]"));
      const n = document.querySelectorAll('.card-pick[aria-pressed="true"][data-holder="' + who + '"]').length;
      bar.replaceChildren(n ? n + " picked" : "Pick cards, then", ...forms.map((f) => {
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = f.dataset.picksLabel;
        b.onclick = () => f.requestSubmit(f.querySelector("[type=submit]"));
        return b;
      }));
      bar.hidden = !forms.length;
    }
  }
  const when = ["DOMContentLoaded", "htmx:afterSettle", "htmx:wsAfterMessage", "htmx:afterRequest", "tabletop:answered",
    "tabletop:picked"];
  for (const name of when) {
    document.addEventListener(name, bars);
  }
  document.addEventListener("toggle", bars, true);
})();

// Verify a revealed shuffle: recompute its digest here, compare it with the one sealed at the
// shuffle, and check that every card this viewer saw dealt under it lay where it said.
(function () {
  "use strict";

  // Where the order put each card of a marker. A draw made while the draw pile's size was the
  // GM's (the GM held cards of the deck at a table keeping NPC sheets secret) carries no position:
  // its cards are then looked for in the order, in a run for a draw, each for a deal.
  function positionsOf(marker, order) {
    const cards = (marker.dataset.cards || "").split(",");
    if (marker.dataset.positions) return marker.dataset.positions.split(",").map(Number);
    if (marker.dataset.start === undefined) {
      const first = order.indexOf(cards[0]);
      return cards.map(function (card, i) { return marker.dataset.kind === "dealt" ? order.indexOf(card) : first + i; });
    }
    const start = Number(marker.dataset.start || 0);
    return Array.from({ length: cards.length }, function (_, i) { return start + i; });
  }

  async function verify(button) {
    const out = button.parentElement.querySelector(".verify-result");
    const id = button.dataset.commitment;
    const order = button.dataset.order ? button.dataset.order.split(",") : [];
    const sealed = document.querySelector('[data-sealed="' + id + '"]');
    const digest = sealed ? sealed.dataset.digest : button.dataset.digest;
    if (!window.crypto || !crypto.subtle || !window.tabletopVerify) {
      out.textContent = "This browser cannot compute SHA-256 here (it needs https).";
      return;
    }
    const computed = await window.tabletopVerify(order, button.dataset.salt);
    if (computed !== digest) {
      out.textContent = "✗ The revealed order does not match the sealed digest.";
      out.dataset.verified = "false";
      return;
    }
    let seen = 0;
    for (const marker of document.querySelectorAll('[data-dealt-from="' + id + '"][data-cards]')) {
      const cards = marker.dataset.cards.split(",");
      const positions = positionsOf(marker, order);
      for (let i = 0; i < cards.length; i++) {
        if (order[positions[i]] !== cards[i]) {
          out.textContent = "✗ A card you saw dealt was not where the sealed order put it.";
          out.dataset.verified = "false";
          return;
        }
        seen += 1;
      }
    }
    out.textContent = "✓ The digest matches" + (sealed ? " the one sealed at the shuffle" : "") +
      "; " + seen + " card" + (seen === 1 ? "" : "s") + " you saw dealt followed the order.";
    out.dataset.verified = "true";
  }

  document.addEventListener("click", function (e) {
    const button = e.target.closest("button.verify");
    if (button) verify(button);
  });
})();


// Keep the player where they act (issue 38). A live redraw replaces a whole panel (an oob swap of
// its outerHTML), so the browser's own scroll anchoring loses the node it held (often the very
// control just used) and takes another further down (the felt, the Cards section): the page
// jumped by the panel's change in height. The table page turns that anchoring off (tabletop.css)
// and anchors here instead: before a swap it notes what the player is at (the control in focus,
// the one just used, else what lies a third of the way down the screen) and where it is on the
// screen; after the swap that element, or if it went the region of the page it was in (a panel,
// found again by its id), is put back where it was. So what changes inside a panel changes in
// place, and what changes above it does not move it. When the player's turn comes, the control
// they act with is scrolled into view once if it is off screen; nothing here takes the focus.
(function () {
  "use strict";
  const gently = () => (matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth");
  const shown = (el) => !!el && el.isConnected && el.getClientRects().length > 0;
  // a hand docked at the bottom of the screen (a system's panel docks it while a form feeds from
  // it) covers the screen under its top: the free part ends there
  function freeBottom() {
    const dock = document.querySelector(".stage > .hands-panel");
    if (!shown(dock) || getComputedStyle(dock).position !== "sticky") return innerHeight;
    const r = dock.getBoundingClientRect();
    return r.bottom >= innerHeight - 2 && r.top < innerHeight ? r.top : innerHeight;
  }
  function onScreen(el) {
    const r = el.getBoundingClientRect();
    return r.bottom > 0 && r.top < freeBottom();
  }
  // the region of the page an element is in: a panel of the stage or of the side
  function regionOf(el) {
    let r = el;
    while (r.parentElement && !r.parentElement.matches(".stage, .side, .table-layout, main, body")) r = r.parentElement;
    return r;
  }
  const docked = (el) => ["sticky", "fixed"].includes(getComputedStyle(regionOf(el)).position);

  let actor = null; // the control the player last acted with
  let acted = null; // what their last action may put after its form, to be shown once it comes
  function anchorNow() {
    const candidates = [document.activeElement, actor];
    let el = candidates.find((c) => c && c !== document.body && shown(c) && c.closest(".table-layout") && !docked(c) && onScreen(c));
    if (!el) {
      el = document.elementFromPoint(innerWidth / 2, Math.min(innerHeight / 3, freeBottom() / 2));
      if (!el || !el.closest(".table-layout") || docked(el)) return null;
    }
    const region = regionOf(el);
    return { el: el, top: el.getBoundingClientRect().top, region: region, id: region.id,
             regionTop: region.getBoundingClientRect().top };
  }
  function restore(a) {
    if (!a) return;
    let delta = 0;
    if (shown(a.el)) delta = a.el.getBoundingClientRect().top - a.top;
    else {
      const region = shown(a.region) ? a.region : a.id && document.getElementById(a.id);
      if (shown(region)) delta = region.getBoundingClientRect().top - a.regionTop;
    }
    if (Math.abs(delta) >= 1) window.scrollBy(0, delta);
  }

  // What the player's own action put right after the form they used (Shadows' odds under
  // "Show the odds") is scrolled into the free part of the screen if the docked hand or the
  // screen's edge hides it, as far as the control they used stays on screen.
  function reveal() {
    if (!acted) return;
    if (Date.now() > acted.until) { acted = null; return; }
    const form = acted.form.isConnected ? acted.form : acted.form.id && document.getElementById(acted.form.id);
    const next = form && form.nextElementSibling;
    // a panel's redraw makes every node new: what is new is an id not there before, or one now
    // saying something else (the odds for another target)
    if (!next || !next.id || acted.before[next.id] === next.outerHTML || !shown(next)) return;
    const control = shown(acted.elt) ? acted.elt : form;
    acted = null;
    const hidden = next.getBoundingClientRect().bottom + 8 - freeBottom();
    const room = control.getBoundingClientRect().top - 8;
    if (hidden > 0 && room > 0) window.scrollBy({ top: Math.min(hidden, room), behavior: gently() });
  }

  document.addEventListener("htmx:beforeRequest", function (e) {
    const config = e.detail.requestConfig;
    const elt = config && config.elt;
    if (!elt || !elt.closest || !elt.closest(".table-layout")) return;
    const focused = document.activeElement;
    actor = focused && elt.contains(focused) ? focused : elt;
    const form = elt.closest("form") || elt;
    const before = {};
    for (let n = form.nextElementSibling; n; n = n.nextElementSibling) if (n.id) before[n.id] = n.outerHTML;
    acted = { elt: actor, form: form, before: before, until: Date.now() + 5000 };
  });

  // Your turn: the first control the player acts with (a controller-only form or button of the
  // stage, theirs) comes into view once, when the turn becomes theirs. While they type in a
  // field it waits until they leave it, so neither the field nor the focus is taken from them.
  let mine = null;
  let owed = false;
  function controlToAct() {
    const body = document.body;
    for (const el of document.querySelectorAll(".stage .controller-only")) {
      if (body.dataset.seat !== "gm" && el.dataset.controller !== body.dataset.member) continue;
      if (!shown(el) || docked(el)) continue;
      return el.matches("form, button, details") ? el : el.querySelector("form, button") || el;
    }
    return null;
  }
  const typing = () => { const a = document.activeElement; return !!a && a.matches("input:not([type=button]):not([type=submit]), textarea, select, [contenteditable]"); };
  function bringTurn() {
    owed = false;
    if (typing()) { owed = true; return; }
    const control = controlToAct();
    if (!control) return;
    const free = freeBottom();
    const c = control.getBoundingClientRect();
    if (c.top >= 0 && Math.min(c.bottom, c.top + 120) <= free) return; // on screen already
    // with the box it stands in (what the turn is about: "the Ghoul attacks Alma"), if that fits
    let box = control;
    for (let a = control.parentElement; a && !a.matches(".stage, .rounds"); a = a.parentElement) {
      if (a.id && a.getBoundingClientRect().height <= free * 0.8) box = a;
    }
    const r = box.getBoundingClientRect();
    window.scrollBy({ top: r.top - Math.max(8, (free - r.height) / 3), behavior: gently() });
  }
  function turnCheck() {
    const now = document.querySelector("#turn-banner:not([hidden]) .turn-mine") !== null;
    const came = now && mine === false;
    mine = now;
    if (!now) owed = false;
    if (came) bringTurn();
  }
  document.addEventListener("focusout", function () {
    if (owed) setTimeout(function () { if (owed && mine && !typing()) bringTurn(); }, 0);
  });

  let kept = null;
  function before(e) { if (!e.defaultPrevented) kept = anchorNow(); }
  function after() {
    const a = kept;
    kept = null;
    restore(a);
    reveal();
    turnCheck();
  }
  document.addEventListener("htmx:wsBeforeMessage", before);
  document.addEventListener("htmx:wsAfterMessage", after);
  document.addEventListener("htmx:beforeSwap", before);
  document.addEventListener("htmx:afterSettle", after);
  document.addEventListener("tabletop:answered", reveal);
  document.addEventListener("DOMContentLoaded", turnCheck);
})();
