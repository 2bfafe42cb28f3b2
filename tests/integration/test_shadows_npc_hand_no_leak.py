"""An NPC's hand size reaches the GM alone while the table keeps NPC sheets secret (the default),
in any byte the other seats receive: the table page, a command's answer, a socket frame, a replay
on reconnect, the log's exports, the table's card panel.

Seed 000: the cards are dealt "based on that player's appropriate combat Attributes for their
stated focus ... Physical (physical attacks, movement, physical skills, etc): Body +
1/2xPhysical": a hand's size is a figure of the sheet. Decided reading: an NPC's sheet is the
GM's; other seats "see its name and what the rules make public ... and nothing more"."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async

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
    # a reconnect replays the log from the start: still nothing
    await viewers["bob"].socket.close()
    viewers["bob"].socket = await connect(sh["table"], sh["bob"])
    await viewers["bob"].socket.until("dealt", timeout=5)
    assert told(viewers["bob"].everything(), gm_id) == []
    for viewer in viewers.values():
        await viewer.socket.close()
