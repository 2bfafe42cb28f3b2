"""A frame over the socket's limit, under the real daphne: closed with 1009, and the page
comes back live once, without sending the frame again."""

from __future__ import annotations

from playwright.sync_api import expect

# Pads the next frame holding the marker past the limit, and records every socket's close
# code; the page's own code and htmx's ws extension run unchanged.
OVERSIZE_JS = """
() => {
  window.__bigSends = 0;
  window.__closeCodes = [];
  const watched = new WeakSet();
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (!watched.has(this)) {
      watched.add(this);
      this.addEventListener("close", (e) => window.__closeCodes.push(e.code));
    }
    if (typeof data === "string" && data.includes("PAD-ME")) {
      window.__bigSends += 1;
      data = data.replace("PAD-ME", "x".repeat(20000));
    }
    return send.call(this, data);
  };
}
"""


def test_a_frame_too_big_closes_with_1009_and_the_page_reconnects_once(player_table, daphne_log):
    table, gm, ann = player_table
    log_from = daphne_log.stat().st_size
    ann.page.evaluate(OVERSIZE_JS)
    ann.page.locator("#chat-form #id_text").fill("PAD-ME")
    assert ann.submit("chat-form", "an oversized chat frame") == "dropped"
    ann.wait_live()  # the page reconnected and resumed
    ann.page.wait_for_timeout(2500)  # time enough for a second close, were there one
    assert ann.page.evaluate("window.__closeCodes") == [1009]
    assert ann.page.evaluate("window.__bigSends") == 1
    ann.chat("after the close")
    for person in (ann, gm):
        expect(person.entry("after the close")).to_have_count(1)
    assert not any("PAD-ME" in f or "x" * 100 in f for f in gm.frames)
    with daphne_log.open() as log:
        log.seek(log_from)
        written = log.read()
    assert "Traceback" not in written and "Exception inside application" not in written, written
