// Recompute a shuffle commitment in the browser, so a player need not trust the server.
//
// Same canonical encoding as games/core/commitment.py:
//   SHA-256 over the UTF-8 bytes of  salt + "\n" + orderIds.join("\n")
// where salt is lowercase hex (even length, at least 32 digits) and each id is a non-empty
// string without a newline, listed from the top of the pile. Compare the result with the
// digest the server published at the shuffle.
//
// crypto.subtle exists only in secure contexts (https, or http on localhost).
(function () {
  "use strict";

  const SALT = /^(?:[0-9a-f]{2}){16,}$/;

  async function tabletopVerify(orderIds, saltHex) {
    if (typeof saltHex !== "string" || !SALT.test(saltHex)) {
      throw new TypeError("salt must be lowercase hex, an even number of digits, 32 or more");
    }
    if (!Array.isArray(orderIds)) {
      throw new TypeError("order must be an array of card ids");
    }
    for (const id of orderIds) {
      if (typeof id !== "string" || id === "" || id.includes("\n")) {
        throw new TypeError("each card id must be a non-empty string with no newline");
      }
    }
    const bytes = new TextEncoder().encode(saltHex + "\n" + orderIds.join("\n"));
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  window.tabletopVerify = tabletopVerify;
})();
