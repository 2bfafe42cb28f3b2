"""A seeded evening of Harsh Light through the table's routes (issue 26, "Done means": "a seeded
random session per system (hundreds of checks, retries, groups, pulls, fights) with no refusal
for lack of cards, no 500 and every card conserved").

Hundreds of moves picked at random from what the panel offers: pulls simple and resisted,
attacks answered with Willpower or without, Dodges, moves, extended actions (some limited, some
losing their progress), contests, fights started and ended, harm and healing, the Storyteller's
new turns and options. Every answer is 200, or a refusal in words (400/403) that is never for
lack of cards; the deck keeps its forty cards, each once, and cycles through its discard.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from django.urls import reverse

from games.harsh_light import DECK
from tabletop.models import CardPlacement, Event
from tabletop.selectors import procedure_state
from tests.integration.test_harsh_light_fights import FORM, HTMX, cid, hl  # noqa: F401 (hl is a fixture)

MOVES = 800
SEED = 2602


def test_a_seeded_evening_never_runs_out_of_cards_never_answers_500_and_keeps_every_card(hl) -> None:
    rng = random.Random(SEED)
    people = {cid(hl[n]): (hl[n], who) for n, who in (("alfie", "ann"), ("betty", "bob"), ("ghoul", "gm"))}
    seen: Counter[str] = Counter()
    why: Counter[str] = Counter()

    def post(who: str, command: str, **data: Any) -> None:
        answer = hl["clients"][who].post(reverse("table_command", args=[hl["table"].pk, command]), data, **HTMX)
        text = answer.content.decode()
        assert answer.status_code in (200, 400, 403), (command, answer.status_code, text)
        assert "no cards" not in text.lower() and f"no {DECK} deck" not in text, (command, text)
        seen[f"{command}:{answer.status_code}"] += 1
        if answer.status_code == 400:
            why[text.split(">", 1)[1][:50]] += 1

    def anyone() -> tuple[str, Any, str]:
        c = rng.choice(list(people))
        character, who = people[c]
        return c, character, who if rng.random() < 0.7 else "gm"

    for _ in range(MOVES):
        state = procedure_state(hl["table"]) or {}
        waiting = state.get("reaction")
        if waiting:  # its target answers, or the GM moves on
            _, who = people[waiting["target"]]
            post(rng.choice([who, "gm"]), "answer", combatant=waiting["target"],
                 **({"willpower": "1"} if rng.random() < 0.5 else {}))
            continue
        c, character, who = anyone()
        roll = rng.random()
        target = rng.choice([t for t in people if t != c])
        if roll < 0.35:
            resisted = {"target": str(people[target][0].pk), "resist": rng.choice(["defence", "composure"])} \
                if rng.random() < 0.6 else {"resist_value": str(rng.randint(0, 3))}
            post(who, "pull", **{**FORM, **resisted, "skill": rng.choice(["brawl", "", "occult"]),
                                 "action": rng.choice(["instant", "talking"]),
                                 "willpower": "1" if rng.random() < 0.2 else ""},
                 combatant=character.pk, attribute=rng.choice(["strength", "wits"]))
        elif roll < 0.45:
            open_ = [x for x, a in state.get("extended", {}).items() if not a["done"]]
            if open_ and rng.random() < 0.8:
                post("gm", "extended_pull", extended=rng.choice(open_), modifier=str(rng.randint(-3, 1)))
            else:
                post("gm", "extended_start", combatant=character.pk, attribute="wits", skill="", modifier="0",
                     needed=str(rng.randint(2, 8)), limit=rng.choice(["", "3"]), lose=rng.choice(["", "1"]))
        elif roll < 0.55:
            open_ = [(k, s["combatant"]) for k, c_ in state.get("contests", {}).items() if not c_["done"]
                     for s in c_["sides"] if s["combatant"] not in c_["pulled"]]
            if open_ and rng.random() < 0.8:
                k, side = rng.choice(open_)
                post("gm", "contest_pull", contest=k, combatant=side, again=rng.choice(["", "9"]))
            else:
                post("gm", "contest_start", combatant_a=character.pk, attribute_a="wits", modifier_a="0",
                     combatant_b=people[target][0].pk, attribute_b="wits", modifier_b="0",
                     needed=rng.choice(["", "3"]))
        elif roll < 0.65:
            post(who, "end_turn", **({"combatant": state["acting"]} if state.get("acting") else {}))
        elif roll < 0.70:
            post(who, rng.choice(["dodge", "move"]), combatant=character.pk)
        elif roll < 0.75:
            post(who, "willpower", combatant=character.pk, use=rng.choice(["resist", "power"]))
        elif roll < 0.80:
            post("gm", rng.choice(["roll_initiative", "set_order"]),
                 characters=[p.pk for p, _ in people.values()], order=[p.pk for p, _ in people.values()])
        elif roll < 0.85:
            post("gm", "end_combat")
        elif roll < 0.88:
            post("gm", "harm", combatant=character.pk, points="1", kind=rng.choice(["bashing", "lethal"]))
        elif roll < 0.95:  # the Storyteller heals more than harms: a long evening, not a massacre
            post("gm", "heal", combatant=character.pk, points=str(rng.randint(2, 5)), kind="")
        else:
            post("gm", rng.choice(["set_options", "end_turn", "end_turn"]), untrained=rng.choice(["", "1"]))
    pulls = Event.objects.filter(table=hl["table"], kind__in=[f"harsh_light.{k}" for k in (
        "pulled", "extended_pulled", "contest_pulled", "consciousness_pulled")]).count()
    assert pulls >= 200, (seen, why.most_common(8))
    assert seen["answer:200"] >= 20 and seen["pull:200"] >= 80, seen
    placed = list(CardPlacement.objects.filter(deck__table=hl["table"], deck__name=DECK).values_list("card_id", flat=True))
    assert len(placed) == 40 and len(set(placed)) == 40  # every card, once
    assert Event.objects.filter(table=hl["table"], summary__icontains="shuffle").exists()  # the deck cycled
