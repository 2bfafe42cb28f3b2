"""Report Card's decks cycle (issue 21, "Rule decks run dry and jam"): a seeded evening of more
than two hundred checks through the generic routes, as the page posts them, is never refused
for lack of cards; every deck keeps its 78 cards; each time a draw pile runs out the discard is
shuffled back under a new seal, logged, and every card drawn verifies against its seal.

The decided reading 004: "only the rules move its cards (a check's card goes to the discard when
the check closes; an empty draw pile reshuffles the discard under a new seal)". The project's rule: "no
rule may dead-end for lack of cards".
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from django.urls import reverse

from games.core.commitment import verify as seal_verifies
from games.report_card.draws import on_the_table
from games.report_card.state import final, last, may_draw, status
from tabletop import services
from tabletop.models import CardPlacement, Event, PileKind, ShuffleCommitment
from tests.integration.test_report_card_table import (  # noqa: F401 (school is a fixture)
    assert_conserved, cid, deck_of, post, school, state, verify,
)

CHECKS = 210
SEED = 2104
WHEEL = "tarot:major:10"
RANKS = ["easy", "medium", "medium", "hard", "hard", "unlikely"]
# each character's skills, for a new A+ and F once its three circles are filled
RECHOOSE = {"Marieta": [("FREE", "GYM"), ("SCI", "ART"), ("FINAID", "SHOP")], "Jo": [("LAW", "ART"), ("AID", "SCI")],
            "Sam": [("GYM", "SCI"), ("MISC", "ART")]}


@pytest.fixture
def seeded(monkeypatch) -> random.Random:
    """Every shuffle of the run from one seed: the decks made with the characters, and each
    reshuffle a command's draw needs."""
    rng = random.Random(SEED)
    monkeypatch.setattr("tabletop.services.characters.system_rng", lambda: rng)
    monkeypatch.setattr("tabletop.actions.system_rng", lambda: rng)
    return rng


class Evening:
    """Drives the checks as the GM and the players would, each through its route; every
    command must be answered 200."""

    def __init__(self, s: dict[str, Any], rng: random.Random) -> None:
        self.s, self.rng = s, rng
        # Sam, the GM's own character, helps (issue 26: several helpers, helpers on group checks)
        sam = services.character_create(table=s["table"], actor=s["gm"], name="Sam",
                                        sheet={"strong": "on", "a_plus": "GYM", "f_skill": "SCI", "major": "8"})
        self.players = {cid(s["marieta"]): "ann", cid(s["jo"]): "bob", cid(sam): "gm"}
        self.names = {cid(s["marieta"]): s["marieta"], cid(s["jo"]): s["jo"], cid(sam): sam}
        self.sam = sam
        self.seen: Counter[str] = Counter()
        self.send("gm", "allow_player_calls", {"allowed": "1"})

    def send(self, who: str, command: str, data: dict[str, Any] | None = None) -> None:
        status_code, body = post(self.s, who, command, data)
        assert status_code == 200, (command, who, body[:400], dict(self.seen))
        self.seen[command] += 1

    def call(self, n: int) -> None:
        kind = self.rng.choice(["single", "single", "bonus", "penalty", "group", "help", "helpers", "group_help",
                                "player_call"])
        fields = {"skill": self.rng.choice(["LAW", "FREE", "SCI", "GYM"]), "rank": self.rng.choice(RANKS),
                  "task": f"task {n}"}
        main, other = self.rng.sample([cid(self.s["marieta"]), cid(self.s["jo"])], 2)
        sam = self.sam.pk
        helper = {"helper_skill": "GYM", "helper_rank": "easy", "helper_task": "hold the ladder"}
        if kind in ("group", "group_help"):
            mode = self.rng.choice(["only_one", "everyone"])
            extra = {"helper": sam, "helps": self.names[main].pk, **helper} if kind == "group_help" else {}
            self.send("gm", "call_group", {**fields, "mode": mode, **extra,
                                           "characters": [self.names[main].pk, self.names[other].pk]})
        elif kind == "player_call":  # the player calls, the GM approves the difficulty and any Bonus
            self.send(self.players[main], "call_check", {"character": self.names[main].pk, **fields,
                                                         **({"bonus": "on"} if self.rng.random() < 0.5 else {})})
            self.send("gm", "approve", {"rank": self.rng.choice(RANKS),
                                        **({"penalty": "on"} if self.rng.random() < 0.3 else {})})
        else:
            extra: dict[str, Any] = {"bonus": "on"} if kind == "bonus" else {}
            extra = {"penalty": "on"} if kind == "penalty" else extra
            if kind == "help":
                extra = {"helper": self.names[other].pk, **helper}
            if kind == "helpers":
                extra = {"helper": [self.names[other].pk, sam], "helper_skill": ["LAW", "GYM"],
                         "helper_rank": ["easy", "medium"], "helper_task": ["hold the ladder", "keep watch"]}
            self.send("gm", "call_check", {"character": self.names[main].pk, **fields, **extra})
        self.seen[kind] += 1

    def settle(self) -> None:
        """Each part's next step, until the check closes."""
        for _ in range(40):
            check = state(self.s)["check"]
            if check is None:
                return
            # a Critical Failure everyone shares is final: it waits, retry-less, for the others
            part = next(p for p in check["parts"] if status(p) == "picking"
                        or (status(p) == "failed" and not final(check, p))
                        or (status(p) == "waiting" and self._may_draw(check, p)))
            self.step(part)
        raise AssertionError("the check did not settle")

    @staticmethod
    def _may_draw(check: dict[str, Any], part: dict[str, Any]) -> bool:
        return may_draw(check, check["parts"].index(part))

    def step(self, part: dict[str, Any]) -> None:
        who, found = self.players[part["cid"]], status(part)
        data = {"character": part["cid"]}
        if found == "waiting":
            self.send(self.rng.choice([who, "gm"]), "draw", data)
        elif found == "picking":
            chooser = "gm" if last(part)["pending"] == "gm" else who
            self.send(chooser, "pick", {**data, "index": str(self.rng.randrange(2))})
        elif final(state(self.s)["check"], part):  # a Critical Failure for everyone: no retry
            raise AssertionError("a final failure left the check open")
        elif self.rng.random() < 0.7:  # failed: most often the player pays for a retry
            if self.names[part["cid"]].sheet["corruption"] >= 3:
                self.empty_circles(part["cid"])
            self.send(who, "retry", data)
        else:
            self.send(who, "accept", data)
        self.names[part["cid"]].refresh_from_db()

    def empty_circles(self, cid: str) -> None:
        """Seed: "When all three of the Corruption Circles are filled, you may gain a new Skill,
        and fail a new skill": the player does, or the GM empties them on the sheet by hand."""
        character = self.names[cid]
        if self.seen["rechoose"] <= self.seen["gm_empties"]:
            a_plus, f_skill = self.rng.choice(RECHOOSE[character.name])
            self.send(self.players[cid], "rechoose", {"character": cid, "a_plus": a_plus, "f_skill": f_skill})
        else:
            form = {"name": character.name, "version": character.version,
                    **{f"sheet_{k}": ("on" if v is True else "" if v is False else v)
                       for k, v in character.sheet.items()}, "sheet_corruption": "0"}
            url = reverse("character_edit", args=[self.s["table"].pk, character.pk])
            assert self.s["clients"]["gm"].post(url, form).status_code == 302
            self.seen["gm_empties"] += 1
        character.refresh_from_db()
        assert character.sheet["corruption"] == 0


def drawn_by_deck(s: dict[str, Any]) -> dict[int, list[str]]:
    """Every card the rules drew, by deck, in order, from the platform's own log."""
    found: dict[int, list[str]] = {}
    for event in Event.objects.filter(table=s["table"], kind="cards.drawn").order_by("seq"):
        found.setdefault(event.payload["deck"], []).extend(event.payload["cards"])
    return found


def test_two_hundred_checks_never_run_a_deck_dry_and_every_reshuffle_verifies(seeded, school) -> None:
    evening = Evening(school, seeded)
    for n in range(CHECKS):
        evening.call(n)
        evening.settle()
        # nothing of a closed check lies face up in the play area: its cards are on the discard
        assert not CardPlacement.objects.filter(deck__table=school["table"], pile__kind=PileKind.PLAY).exists()
    assert Event.objects.filter(table=school["table"], kind="report_card.check_closed").count() == CHECKS
    # every route the evening took, taken
    assert all(evening.seen[k] for k in ("single", "bonus", "penalty", "group", "help", "helpers", "group_help",
                                         "player_call", "approve", "pick", "retry", "accept", "rechoose",
                                         "gm_empties")), evening.seen
    decks = [deck_of(school, c) for c in (school["marieta"], school["jo"])]
    assert_conserved(deck_of(school, evening.sam))
    drawn = drawn_by_deck(school)
    ruled = [t for e in Event.objects.filter(table=school["table"], kind="report_card.drawn").order_by("seq")
             for d in e.payload["event"]["attempt"]["draws"] for t in (d["card"], d["second"]) if t]
    assert Counter(ruled) == Counter(t for tokens in drawn.values() for t in tokens)  # the engine's = the table's
    wheels = [d for e in Event.objects.filter(table=school["table"], kind="report_card.drawn")
              for d in e.payload["event"]["attempt"]["draws"] if d["card"] == WHEEL]
    assert wheels and all(d["second"] for d in wheels)  # the Wheel came up, and drew its second card
    for deck in decks:
        assert_conserved(deck)
        assert len(drawn[deck.pk]) > 2 * 78  # the deck went round more than twice
        refills = Event.objects.filter(table=school["table"], kind="deck.committed", payload__deck=deck.pk,
                                       summary__startswith="The draw pile ran out")
        assert refills.count() >= 2
        for refill in refills:
            assert f"shuffled back into {deck.name}" in refill.summary and refill.audience == "everyone"
    for event in Event.objects.filter(table=school["table"], kind="cards.drawn"):
        verify(event)  # each card came off the top of the sealed order it was drawn under
    published = {e.payload["commitment"]: e.payload["digest"]
                 for e in Event.objects.filter(table=school["table"], kind="deck.committed")}
    revealed = Event.objects.filter(table=school["table"], kind="deck.revealed")
    assert revealed.count() >= 4  # each seal a reshuffle closed is opened for anyone to check
    for event in revealed:
        p = event.payload
        assert seal_verifies(p["order"], p["salt"], published[p["commitment"]])
        assert ShuffleCommitment.objects.get(pk=p["commitment"]).order == p["order"]


def test_the_last_checks_cards_stay_on_the_panel_after_they_go_to_the_discard(school) -> None:
    """The panel keeps a closed check's cards in view from its events, not from the play area."""
    assert post(school, "gm", "call_check", {"character": school["marieta"].pk, "skill": "LAW",
                                             "rank": "automatic", "task": "open the door"})[0] == 200
    assert post(school, "ann", "draw", {"character": cid(school["marieta"])})[0] == 200
    closed = state(school)["history"][-1]
    [token] = on_the_table(last(closed["parts"][0]))
    placed = CardPlacement.objects.get(deck=deck_of(school, school["marieta"]), card_id=token.split("/")[0])
    assert placed.pile.kind == PileKind.DISCARD
    for who in ("ann", "watcher"):
        page = school["clients"][who].get(reverse("table", args=[school["table"].pk])).content.decode()
        panel = page[page.index('id="report_card-panel"'):]
        panel = panel[: panel.index("</section>")]
        assert "Last check:" in panel and f'data-card-id="{token.split("/")[0]}"' in panel
