"""No hand card of a Shadows combat round reaches another player or a spectator, in any byte
they receive (the table page, a command's answer, a socket frame, a replay on reconnect, the
log's export), before it is played.

Seed 000: "in combat, only the GM and the particular player will see their own card draws,
due to how players will "play cards from their hand""; issue 16: "no hand card reaches
another player or a spectator in any byte before it is played"."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from games.core.cards import card_by_id
from tabletop import services
from tabletop.models import ShuffleCommitment
from tests.integration.test_shadows_table import (  # noqa: F401 (sh is a fixture)
    ALMA, BRAM, GHOUL, HTMX, cid, dealt_fight, sh, t,
)

do = database_sync_to_async


# A shuffle's sealed order, revealed for Verify (tabletop/services/piles.py, reveal_ready) once
# no card of the deck is in a hand or placed face down: the history of an earlier shuffle,
# never where a hidden card lies now. The test checks apart that the order the hands were dealt
# from is not revealed while they are held.
ORDERS = re.compile(r'data-order="[^"]*"|"order":\s*\[[^\]]*\]')


def leaked(blob: str, shorts: list[str]) -> list[str]:
    """The cards (of ``shorts``) this text names: by name, or by id (as a page's card faces,
    an event's payload or a summary would), past shuffles' revealed orders aside."""
    blob = ORDERS.sub("", blob)
    found = []
    for short in shorts:
        card = card_by_id(t(short))
        if card.name in blob or re.search(re.escape(card.id) + r"(?![0-9])", blob):
            found.append(short)
    return found


class Viewer:
    """Everything one person at the table has received: socket frames and HTTP bodies."""

    def __init__(self, sh: dict[str, Any], who: str) -> None:
        self.sh, self.who = sh, who
        self.client = sh["clients"][who]
        self.bodies: list[str] = []
        self.socket: Any = None

    def get(self, path: str) -> None:
        answer = self.client.get(path)
        assert answer.status_code == 200, path
        self.bodies.append((b"".join(answer.streaming_content) if answer.streaming else answer.content).decode())

    def post(self, command: str, **data: Any) -> int:
        answer = self.client.post(reverse("table_command", args=[self.sh["table"].pk, command]), data, **HTMX)
        self.bodies.append(answer.content.decode())
        return answer.status_code

    def everything(self) -> str:
        return "\n".join([*self.bodies, *self.socket.received])


def dealt_under(sh: dict[str, Any]) -> int:
    """The seal the hands were dealt under."""
    from tabletop.models import ShuffleCommitment, Event

    [seal] = set(Event.objects.filter(table=sh["table"], kind="cards.drawn", payload__count=4)
                 .values_list("payload__commitment", flat=True))
    return int(seal)


async def barrier(sh: dict[str, Any], viewers: list[Viewer], word: str) -> None:
    """A chat line every socket has received: whatever was sent before it has arrived too."""
    await do(services.chat_post)(table=sh["table"], actor=sh["gm"], text=word)
    for viewer in viewers:
        await viewer.socket.seen(word, timeout=5)


async def seated(sh: dict[str, Any], connect: Any) -> dict[str, Viewer]:
    """The two players, the spectator and the GM, each with a socket open."""
    viewers = {who: Viewer(sh, who) for who in ("ann", "bob", "watcher", "gm")}
    for viewer in viewers.values():
        viewer.socket = await connect(sh["table"], sh[viewer.who])
    return viewers


async def fetch_all(viewer: Viewer) -> None:
    table = viewer.sh["table"]
    for path in (reverse("table", args=[table.pk]), reverse("export", args=[table.pk, "json"]),
                 reverse("export", args=[table.pk, "md"])):
        await do(viewer.get)(path)


@pytest.mark.django_db(transaction=True)
async def test_no_hand_card_reaches_another_player_or_a_spectator_before_it_is_played(sh, connect) -> None:
    viewers = {who: Viewer(sh, who) for who in ("ann", "bob", "watcher", "gm")}
    for viewer in viewers.values():
        viewer.socket = await connect(sh["table"], sh[viewer.who])
    everyone = list(viewers.values())
    ann, bob, watcher = viewers["ann"], viewers["bob"], viewers["watcher"]

    # The GM stacks the deck and deals: Alma (Ann), the Ghoul (the GM's NPC), Bram (Bob).
    await do(dealt_fight)(sh, ["P11", "C6", "W12", "C13", "S9"])
    alma, bram, ghoul = cid(sh["alma"]), cid(sh["bram"]), cid(sh["ghoul"])
    await do(bob.post)("aim", combatant=bram, target=ghoul, weapon="Blade", skill="melee")
    assert await do(bob.post)("attack", combatant=alma, target=ghoul, weapon="Blade", cards=[t("S12")]) == 403
    await barrier(sh, everyone, "dealt")
    for viewer in everyone:
        await fetch_all(viewer)
    sealed = await do(dealt_under)(sh)
    hidden = {"ann": GHOUL + BRAM, "bob": ALMA + GHOUL, "watcher": ALMA + GHOUL + BRAM}
    for who, cards in hidden.items():
        assert leaked(viewers[who].everything(), cards) == [], who
    # the GM sees every hand, and the NPC's by name in the panel (the check can fail)
    assert leaked(viewers["gm"].everything(), ALMA + GHOUL + BRAM) == ALMA + GHOUL + BRAM

    # Bob swaps the Two of Pentacles (face up on the discard pile now) for a card nobody else sees.
    assert await do(bob.post)("redeal", combatant=bram, cards=[t("P2")]) == 200
    bram_now = ["C9", "W5", "S3", "P11"]
    # Alma attacks the Ghoul with her Knight; the GM dodges with the Ghoul's Two of Wands; the
    # Six of Cups and the Knight of Wands come off the deck for the critical chain.
    assert await do(ann.post)("attack", combatant=alma, target=ghoul, weapon="Blade", skill="melee",
                              cards=[t("S12")]) == 200
    assert await do(viewers["gm"].post)("defend", combatant=ghoul, cards=[t("W2")]) == 200
    await barrier(sh, everyone, "played")
    for viewer in everyone:
        await fetch_all(viewer)
    still = {"ann": ["C4", "P8", "S7"] + bram_now, "bob": ["C3", "P10", "S5", "C4", "P8", "S7"],
             "watcher": ["C3", "P10", "S5", "C4", "P8", "S7"] + bram_now}
    for who, cards in still.items():
        assert leaked(viewers[who].everything(), cards) == [], who
        assert f'data-commitment="{sealed}" data-digest' not in viewers[who].everything(), who
    for who in ("ann", "bob", "watcher"):  # what was played is everyone's now
        assert leaked(viewers[who].everything(), ["S12", "W2", "P2"]) == ["S12", "W2", "P2"], who

    # A reconnect replays the log from the start: still nothing hidden.
    for who in ("bob", "watcher"):
        await viewers[who].socket.close()
        viewers[who].socket = await connect(sh["table"], sh[who])
        await viewers[who].socket.until("played", timeout=5)
        assert leaked(viewers[who].everything(), still[who]) == [], who

    # The round ends: every card goes back into the deck; what was never played stays unseen.
    assert await do(viewers["gm"].post)("new_round") == 200
    await barrier(sh, [viewers[w] for w in ("ann", "bob", "watcher")], "gathered")
    for who, cards in still.items():
        await fetch_all(viewers[who])
        assert leaked(viewers[who].everything(), cards) == [], who
    # ... and the order they were dealt from stays sealed: revealing it would tell who held
    # which card, and a hand's unplayed cards stay its holder's even after the round
    for who in ("ann", "bob", "watcher"):
        assert f'data-commitment="{sealed}" data-digest' not in viewers[who].everything(), who
    assert await database_sync_to_async(
        lambda: ShuffleCommitment.objects.get(pk=sealed).revealed_seq)() is None
    exported = json.loads(viewers["watcher"].bodies[-2])
    assert exported["events"] and all("private" not in row for row in exported["events"]
                                      if row["kind"] == "shadows.hand_dealt")
    for viewer in viewers.values():
        await viewer.socket.close()


@pytest.mark.django_db(transaction=True)
async def test_an_npcs_sheet_reaches_the_gm_alone(sh, connect) -> None:
    """The antagonists' figures are the GM's (games/shadows/audiences.py: "NPCs' sheets and
    tracks"; GameSystem.npc_sheets_secret): an NPC made, edited, hurt in a fight and written
    back reaches the other seats as its name alone, in the page, every frame and the exports."""
    from tabletop.models import Character

    viewers = {who: Viewer(sh, who) for who in ("ann", "bob", "watcher", "gm")}
    for viewer in viewers.values():
        viewer.socket = await connect(sh["table"], sh[viewer.who])
    everyone = list(viewers.values())
    secrets = ["silverleaf", "Hates the lantern-song", "Rends"]
    wraith = await do(services.character_create)(
        table=sh["table"], actor=sh["gm"], name="Wraith", npc=True,
        sheet={"quickness": 4, "health": 37, "skills": "Rends: 7", "vulnerabilities": "silverleaf"})
    await do(services.character_update)(
        character=wraith, actor=sh["gm"], name="Wraith",
        sheet={"quickness": 4, "health": 37, "skills": "Rends: 7", "vulnerabilities": "silverleaf",
               "notes": "Hates the lantern-song."})
    # a fight: Alma's Knight of Swords hits the Ghoul, whose Health is written back at the end
    await do(dealt_fight)(sh, ["W12", "C6"])
    gm = viewers["gm"]
    assert await do(viewers["ann"].post)("attack", combatant=cid(sh["alma"]), target=cid(sh["ghoul"]),
                                         weapon="Blade", skill="melee", cards=[t("S12")]) == 200
    assert await do(gm.post)("defend", combatant=cid(sh["ghoul"]), cards=[t("W2")]) == 200
    assert await do(gm.post)("end_combat") == 200
    now = (await do(Character.objects.get)(pk=sh["ghoul"].pk)).sheet["health_now"]
    await barrier(sh, everyone, "written back")
    for viewer in everyone:
        await fetch_all(viewer)
    for who in ("ann", "bob", "watcher"):
        seen = viewers[who].everything()
        assert [s for s in secrets if s in seen] == [], who
        assert f"Health {now} of 30" not in seen and "Ghoul's sheet now holds" not in seen, who
        assert "Wraith" in seen and "The GM's sheet of Ghoul changes." in seen, who
    seen = gm.everything()
    assert [s for s in secrets if s in seen] == secrets
    assert f"Health {now} of 30" in seen and "Ghoul's sheet now holds Health now" in seen
    # and a reconnect's replay from the start tells no more
    await viewers["watcher"].socket.close()
    viewers["watcher"].socket = await connect(sh["table"], sh["watcher"])
    await viewers["watcher"].socket.until("written back", timeout=5)
    assert [s for s in secrets if s in viewers["watcher"].everything()] == []
    for viewer in viewers.values():
        await viewer.socket.close()


# The Wraith's figures, each a string that names it on a page: its skill, its AP (Quickness 8:
# 9 AP), its Defence against a blade (Quickness 8 + protection 3) and what that makes of a
# dodge's need, and its hand of 9 by focus (Body 6 + half Physical 6).
WRAITH_FIGURES = ("Rends", "rends", "9 / 9 AP", "Wraith acts (9 AP", "Wraith's Defence is", "Defence 11",
                  "Physical (9 cards)", "from 9 unknown ones")


def figures_in(blob: str) -> list[str]:
    return [f for f in WRAITH_FIGURES if f in blob]


@pytest.mark.django_db(transaction=True)
async def test_an_npc_in_a_fight_shows_its_figures_to_the_gm_alone(sh, connect) -> None:
    """Issue 21: a seat that may not see an NPC's sheet gets none of its figures (its skills,
    AP, hand sizes, Defence) and no odds counted from them, in the panel, the banner, the log,
    a frame or an export: Alma's aim at the Wraith and her attack waiting on its Defence show
    Ann a plain line; the GM sees the odds. Seeds README: "Odds that depend on a secret figure
    are shown to the GM alone"."""
    viewers = {who: Viewer(sh, who) for who in ("ann", "watcher", "gm")}
    for viewer in viewers.values():
        viewer.socket = await connect(sh["table"], sh[viewer.who])
    ann, watcher, gm = viewers["ann"], viewers["watcher"], viewers["gm"]
    small = {"mind": 3, "mental": 2, "spirit": 3, "emotional": 2}
    wraith = await do(services.character_create)(
        table=sh["table"], actor=sh["gm"], name="Wraith", npc=True,
        sheet={**small, "body": 6, "physical": 6, "quickness": 8, "protection": 3, "skills": "Rends: 7"})
    alma, ghost = cid(sh["alma"]), cid(wraith)

    def start() -> None:
        from tests.integration.test_shadows_table import BLADE, ok, stack
        ok(sh, "gm", "set_weapons", table=BLADE)
        ok(sh, "gm", "start_combat", characters=[sh["alma"].pk, wraith.pk])
        ok(sh, "gm", "declare_focus", combatant=ghost, focus="physical")
        stack(sh, ["S5", "C3", "C4", "C5"])  # Alma's hand, dealt first (she is quicker)
    await do(start)()
    assert await do(ann.post)("declare_focus", combatant=alma, focus="physical") == 200
    assert await do(gm.post)("deal") == 200
    assert await do(gm.post)("end_turn", combatant=ghost) == 200  # its AP left: the GM's line alone
    assert await do(ann.post)("aim", combatant=alma, target=ghost, weapon="Blade", skill="melee") == 200
    await barrier(sh, list(viewers.values()), "aimed")
    for viewer in viewers.values():
        await fetch_all(viewer)
    for viewer in (ann, watcher):
        assert figures_in(viewer.everything()) == [], viewer.who
    assert "the GM's figures" in ann.bodies[-3]  # Ann's page says why she sees no odds
    page = gm.bodies[-3]
    assert f'id="through-{alma}"' in page and "Defence 11" in page and "Rends 7" in page and "9 / 9 AP" in page

    assert await do(ann.post)("attack", combatant=alma, target=ghost, weapon="Blade", skill="melee",
                              cards=[t("S5")]) == 200
    await barrier(sh, list(viewers.values()), "attacked")
    for viewer in viewers.values():
        await fetch_all(viewer)
    for viewer in (ann, watcher):
        assert figures_in(viewer.everything()) == [], viewer.who
        assert "Alma attacks Wraith" in viewer.bodies[-3] and "the GM's figures until the attack resolves" in (
            viewer.bodies[-3])
    assert "Wraith's Defence is 11" in gm.bodies[-3]

    # the attack resolves: the Defence it met is everyone's; the Wraith's skill still is not
    assert await do(gm.post)("defend", combatant=ghost, cards=[]) == 200
    await barrier(sh, list(viewers.values()), "resolved")
    await do(ann.get)(reverse("table", args=[sh["table"].pk]))
    assert "against Defence 11" in ann.bodies[-1]
    for viewer in (ann, watcher):
        assert [f for f in figures_in(viewer.everything()) if "Rends" in f or "rends" in f] == [], viewer.who
    for viewer in viewers.values():
        await viewer.socket.close()
