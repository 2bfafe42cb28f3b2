"""An NPC's hand size reaches the GM alone while the table keeps NPC sheets secret (the default),
in any byte the other seats receive: the table page, a command's answer, a socket frame, a replay
on reconnect, the log's exports, the table's card panel.

Seed 000: the cards are dealt "based on that player's appropriate combat Attributes for their
stated focus ... Physical (physical attacks, movement, physical skills, etc): Body +
1/2xPhysical": a hand's size is a figure of the sheet. Decided reading: an NPC's sheet is the
GM's; other seats "see its name and what the rules make public ... and nothing more".

The draw pile drops by every hand a deal draws, and the players' hand sizes are public: so while
the GM holds cards of a deck, its draw pile's size (a deck widget's count, the counts in every
card event, a sealed draw's position, a new seal's size) is the GM's too
(selectors.draw_counts_held_back)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from tabletop import services
from tests.integration.test_shadows_no_leak import barrier, fetch_all, seated
from tests.integration.test_shadows_table import BLADE, cid, ok, sh  # noqa: F401 (sh is a fixture)

do = database_sync_to_async
# The Ghoul: Body 5 + half Physical 4 = 7 cards; Alma's and Bram's hands are 4 (their sheets are everyone's).
GHOUL_SHEET = {"body": 5, "physical": 4, "mind": 3, "mental": 2, "spirit": 3, "emotional": 2, "quickness": 5,
               "health": 30, "skills": "Claws: 4"}


def told(blob: str, gm_id: int) -> list[str]:
    """Every way these bytes could say "the Ghoul holds 7 cards"."""
    patterns = [r"\b7 cards\b", r"\bseven cards\b", r'"count":\s*7\b', r"dealt 7\b",
                rf'id="hand-count-{gm_id}"[^>]*>\s*7\s*<']
    return [p for p in patterns if re.search(p, blob, re.IGNORECASE)]


def deal(sh: dict[str, Any]) -> None:
    services.character_update(character=sh["ghoul"], actor=sh["gm"], name="Ghoul", sheet=GHOUL_SHEET)
    ok(sh, "gm", "set_weapons", table=BLADE)
    ok(sh, "gm", "start_combat", characters=[sh["alma"].pk, sh["ghoul"].pk, sh["bram"].pk])
    ok(sh, "ann", "declare_focus", combatant=cid(sh["alma"]), focus="physical")
    ok(sh, "gm", "declare_focus", combatant=cid(sh["ghoul"]), focus="physical")
    ok(sh, "bob", "declare_focus", combatant=cid(sh["bram"]), focus="physical")
    ok(sh, "gm", "deal")


HELD = "draw pile: the GM's count while the GM holds cards of it"


def received(viewer: Any) -> list[str]:
    """What one seat received, body by body and frame by frame."""
    return [*viewer.bodies, *viewer.socket.received]


def draw_figures(blobs: list[str], deck_id: int) -> list[int]:
    """Every size of the deck's draw pile these bytes give: its widget's count (page, frames), the
    counts in an exported event's data, a seal's size (its data, its line)."""
    blob = "\n".join(blobs)
    figures = [int(n) for n in re.findall(
        rf'id="deck-counts-{deck_id}"[^>]*>\s*<span class="count-draw[^"]*"><strong>(\d+)</strong>', blob)]
    figures += [int(n) for n in re.findall(r"Minor Arcana \((\d+) cards\); the order is sealed", blob)]
    for body in blobs:
        if body.startswith("{") and '"events"' in body:
            for row in json.loads(body)["events"]:
                data = row["data"]
                drawn = data.get("counts", {}).get("decks", {}).get(str(deck_id), {})
                figures += [drawn["draw"]] if "draw" in drawn else []
                figures += [data["count"]] if row["kind"] == "deck.committed" and data["deck"] == deck_id and "count" in data else []
    return figures


def starts(blob: str) -> list[int]:
    """The positions in a sealed order of the draws these bytes show (log lines, exports)."""
    found = [int(n) for n in re.findall(r'data-start="(\d+)"', blob)]
    found += [int(n) for n in re.findall(r'"start":\s*(\d+)', blob)]
    return found


@pytest.mark.django_db(transaction=True)
async def test_an_npcs_hand_size_reaches_no_other_seat_and_the_gm_keeps_it(sh, connect) -> None:
    viewers = await seated(sh, connect)
    everyone = list(viewers.values())
    await do(deal)(sh)
    await barrier(sh, everyone, "dealt")
    for viewer in everyone:
        await fetch_all(viewer)
    gm_id = sh["gm"].pk
    for who in ("ann", "bob", "watcher"):
        seen = viewers[who].everything()
        assert told(seen, gm_id) == [], who
        assert "Ghoul is dealt a hand (Physical focus; how many cards is the GM&#x27;s)" in seen \
            or "Ghoul is dealt a hand (Physical focus; how many cards is the GM's)" in seen, who
        assert "cards in hand: the GM" in seen, who  # the panel row, in place of a count
        assert re.search(rf'id="hand-count-{gm_id}"[^>]*>\?<', seen), who  # the card panel's widget
        # what is everyone's stays everyone's: Bram's 4 cards (his sheet is public; Bob reads his cards)
        assert "Bram is dealt 4 cards" in seen or who == "bob", who
    exported = json.loads(viewers["watcher"].bodies[-2])
    dealt = [row for row in exported["events"] if row["kind"] == "shadows.hand_dealt"]
    ghoul = next(row for row in dealt if "Ghoul" in row["summary"])
    assert "count" not in ghoul["data"]["event"] and "private" not in ghoul
    # the GM still reads it: the panel row, the deal's line and the card panel
    gm_seen = viewers["gm"].everything()
    assert "7 cards in hand" in gm_seen
    assert re.search(rf'id="hand-count-{gm_id}"[^>]*>7<', gm_seen)
    # the draw pile: Alma's 4 cards left it before the Ghoul's (Quickness 9, 5, 3), then the Ghoul's 7 and
    # Bram's 4. The others read 56 and 52, and never a count taken after the Ghoul's cards left it.
    minor = sh["minor"].pk
    assert re.search(rf'id="deck-counts-{minor}"[^>]*>\s*<span class="count-draw[^"]*"><strong>41</strong>', gm_seen)
    assert 41 in draw_figures(received(viewers["gm"]), minor), draw_figures(received(viewers["gm"]), minor)
    for who in ("ann", "bob", "watcher"):
        seen = viewers[who].everything()
        figures = draw_figures(received(viewers[who]), minor)
        assert 56 in figures and 52 in figures, who  # what stood before the Ghoul's deal is everyone's
        assert min(figures) >= 41 + 7, (who, sorted(set(figures)))
        assert HELD in seen, who  # the deck widget says whose the count is
        # a sealed draw's position: Alma's (0) is everyone's; the Ghoul's (4) and Bram's (11) would give it
        assert set(starts(seen)) <= {0}, (who, starts(seen))
    assert {4, 11} <= set(starts(gm_seen))
    # a reconnect replays the log from the start: still nothing
    await viewers["bob"].socket.close()
    viewers["bob"].socket = await connect(sh["table"], sh["bob"])
    await viewers["bob"].socket.until("dealt", timeout=5)
    assert told(viewers["bob"].everything(), gm_id) == []
    replayed = viewers["bob"].socket.received
    assert min(draw_figures(replayed, minor)) >= 41 + 7 and set(starts("\n".join(replayed))) <= {0}
    for viewer in viewers.values():
        await viewer.socket.close()


@pytest.mark.django_db(transaction=True)
async def test_only_a_deck_the_gm_holds_cards_of_keeps_its_count_and_only_while_the_gm_holds_them(sh, connect) -> None:
    """A player's own draw from a deck the GM holds nothing of shows its counts and its place in
    the sealed order, while the Minor Arcana's count is the GM's; once the fight's hands go back
    (the GM holds none of it), every seat reads the Minor Arcana's count again."""
    viewers = await seated(sh, connect)
    ann, bob = viewers["ann"], viewers["bob"]
    common = await do(services.deck_create)(table=sh["table"], actor=sh["gm"], kind="standard", name="Common",
                                            rng=sh["rng"], players_may_use=True)
    await do(deal)(sh)
    await do(services.pile_draw)(deck=common, actor=sh["ann"], count=2)
    # a new seal's size is its draw pile's: the GM's too
    await do(services.deck_shuffle)(deck=sh["minor"], actor=sh["gm"], rng=sh["rng"])
    await barrier(sh, list(viewers.values()), "drawn")
    await do(ann.get)(reverse("table", args=[sh["table"].pk]))
    await do(ann.get)(reverse("export", args=[sh["table"].pk, "json"]))
    await do(bob.get)(reverse("table", args=[sh["table"].pk]))
    for viewer in (ann, bob):
        seen = viewer.everything()
        assert 50 in draw_figures(received(viewer), common.pk), viewer.who  # Common: 52 less Ann's 2
        assert f'id="deck-counts-{sh["minor"].pk}"' in seen and HELD in seen, viewer.who
        assert "Minor Arcana (how many cards is the GM" in seen, viewer.who
        assert min(draw_figures(received(viewer), sh["minor"].pk)) >= 41 + 7, viewer.who
    exported = json.loads(ann.bodies[-1])
    [drawn] = [row for row in exported["events"] if row["kind"] == "cards.drawn" and row["data"]["deck"] == common.pk]
    assert drawn["data"]["start"] == 0 and drawn["data"]["counts"]["decks"][str(common.pk)]["draw"] == 50
    assert "draw" not in drawn["data"]["counts"]["decks"][str(sh["minor"].pk)]
    assert 'data-start="0"' in "\n".join(ann.socket.received)

    await do(ok)(sh, "gm", "end_combat")  # the hands of the fight go back into the Minor Arcana: the GM holds none
    await barrier(sh, list(viewers.values()), "ended")
    await do(bob.get)(reverse("table", args=[sh["table"].pk]))
    page = bob.bodies[-1]
    assert re.search(rf'id="deck-counts-{sh["minor"].pk}"[^>]*>\s*<span class="count-draw[^"]*"><strong>56</strong>', page)
    assert HELD not in page
    assert 56 in draw_figures(bob.socket.received[-5:], sh["minor"].pk)
    for viewer in viewers.values():
        await viewer.socket.close()
