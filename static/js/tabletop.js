// The table's live glue: only what htmx cannot do by itself.
// - resume: on every (re)connect, tell the server the last seq we rendered;
// - dedupe: drop a frame whose seq we already have (a replay racing the live feed);
// - upsert: a row for a new member or character is appended where it belongs;
// - connection status, copy buttons, focus and log scrolling.
(function () {
  "use strict";
  let lastSeq = 0;

  function frameSeq(html) {
    const m = /data-frame-seq="(\d+)"/.exec(html);
    return m ? Number(m[1]) : null;
  }

  function setConnection(state, text) {
    const el = document.getElementById("connection");
    if (el) {
      el.dataset.state = state;
      el.textContent = text;
    }
  }

  function scrollLog() {
    const log = document.getElementById("log");
    if (log) log.scrollTop = log.scrollHeight;
  }

  document.addEventListener("DOMContentLoaded", function () {
    const socket = document.getElementById("socket");
    if (socket) lastSeq = Number(socket.dataset.lastSeq || 0);
    scrollLog();
  });

  document.addEventListener("htmx:wsOpen", function (e) {
    setConnection("live", "Live");
    e.detail.socketWrapper.send(JSON.stringify({ type: "resume", after: lastSeq }));
  });

  document.addEventListener("htmx:wsClose", function (e) {
    const code = e.detail.event && e.detail.event.code;
    if (code === 4403) {
      setConnection("closed", "You are no longer at this table.");
    } else {
      setConnection("reconnecting", "Reconnecting…");
    }
  });

  document.addEventListener("htmx:wsBeforeMessage", function (e) {
    const message = e.detail.message;
    const seq = frameSeq(message);
    const snapshot = message.indexOf('data-snapshot="true"') !== -1;
    if (seq !== null && !snapshot && seq <= lastSeq) e.preventDefault();
  });

  document.addEventListener("htmx:wsAfterMessage", function (e) {
    const seq = frameSeq(e.detail.message);
    if (seq !== null) lastSeq = Math.max(lastSeq, seq);
    const socket = document.getElementById("socket");
    if (socket) socket.dataset.lastSeq = String(lastSeq);
    scrollLog();
  });

  document.addEventListener("htmx:oobErrorNoTarget", function (e) {
    const el = e.detail.content;
    const into = el && el.dataset ? el.dataset.upsertInto : null;
    const parent = into ? document.querySelector(into) : null;
    if (!parent) return;
    parent.appendChild(el);
    htmx.process(el);
    for (const empty of parent.querySelectorAll("[data-empty]")) empty.remove();
  });

  document.addEventListener("htmx:afterSettle", function (e) {
    const elt = e.detail.requestConfig && e.detail.requestConfig.elt;
    if (!elt || (elt.id !== "roll-form" && elt.id !== "chat-form")) return;
    // Only give focus back if it was in the form that was swapped out (it is lost then);
    // a player who moved on to another control while the answer travelled keeps their place.
    const active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    const form = document.getElementById(elt.id);
    const input = form && form.querySelector("input[type=text], input:not([type])");
    if (input) input.focus();
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

// Verify a revealed shuffle: recompute its digest here, compare it with the one sealed at the
// shuffle, and check that every card this viewer saw dealt under it lay where it said.
(function () {
  "use strict";

  function positionsOf(marker) {
    if (marker.dataset.positions) return marker.dataset.positions.split(",").map(Number);
    const count = (marker.dataset.cards || "").split(",").length;
    const start = Number(marker.dataset.start || 0);
    return Array.from({ length: count }, function (_, i) { return start + i; });
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
      const positions = positionsOf(marker);
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
