"""Issue 36, "Done means": "The contract kit's random campaigns include ... NPC copies, with the
checks it makes today." The kit's random campaign (tests/integration/test_contract_kit.py), for
every system, with the GM's NPC tools among the controls: now and then the GM copies an NPC,
fields several, resets one's tracks, retires one or the fallen (mid-fight too), brings one back,
saves one to the bestiary and brings some from it, each from the controls the GM's own page
offers, filled as a person would. The kit's checks hold throughout: no 500, a refusal changes
nothing, cards conserved, the log folds back into the state, and no seat but the GM's receives a
sample NPC's hidden sheet in any byte, for every copy."""

from __future__ import annotations

import json
import random
import secrets
from collections import Counter

import pytest
from django.urls import reverse

from games import registry
from tabletop.models import Character, Event
from tests.integration.test_contract_kit import JAMMED, bytes_of, controls_of, turn_holders
from tests.support.frames import logged
from tests.support.kit import SENTINEL, Control, KitTable, conserved, controls_in, fill, fold, make_table, samples, \
    snapshot, stored_state

pytestmark = pytest.mark.django_db

STEPS = 110  # with the kit itself (240 steps a system) beside it, enough for every tool to be used
TOOLS = ("/npcs/", "/bestiary/")


def npc_tools(kt: KitTable) -> list[Control]:
    """The NPC tools the GM's table page offers now (each NPC's card, the retired list, the bestiary)."""
    page = kt.gm.client.get(reverse("table", args=[kt.table.pk])).content.decode()
    return [c for c in controls_in(page, kt.table.pk) if any(t in c.url for t in TOOLS)]


def play(kt: KitTable, rnd: random.Random, steps: int) -> tuple[Counter[str], list[Event]]:
    done: Counter[str] = Counter()
    with logged() as events:
        for step in range(steps):
            tools = rnd.random() < 0.25
            if tools:
                seat, controls = kt.gm, npc_tools(kt)
            else:
                holders = turn_holders(kt)
                seat = rnd.choice(holders) if holders and rnd.random() < 0.6 else rnd.choice([kt.gm, *kt.players])
                controls = controls_of(kt, seat)
            if not controls:
                continue
            weights = [3 if not done[c.key] else 1 / (1 + done[c.key]) for c in controls]
            control = rnd.choices(controls, weights=weights, k=1)[0]
            data = fill(control, rnd, kt.hands())
            before = snapshot(kt.table)
            answer = seat.client.post(control.url, data, HTTP_HX_REQUEST="true")
            status = answer.status_code
            assert status < 500, f"{kt.game.key} step {step}: {seat.name} {control.url} {data} -> {status}"
            if status >= 400:
                assert snapshot(kt.table) == before, f"{kt.game.key}: a refused {control.name} changed the table"
                assert not JAMMED.search(answer.content.decode())
            else:
                done[control.key] += 1
                if tools:
                    done["tool:" + control.url.rstrip("/").rsplit("/", 2)[-2] + "." + control.name] += 1
            if step % 20 == 0:
                assert conserved(kt.table) == [], f"{kt.game.key} step {step}"
    return done, list(events)


@pytest.mark.parametrize("system", list(registry.SYSTEMS))
def test_a_random_campaign_with_the_npc_tools_keeps_every_check_of_the_kit(system: str) -> None:
    kt = make_table(system, f"n-{system}")
    seed = 36 + sum(map(ord, system))
    with pytest.MonkeyPatch.context() as patch:
        table_rng = random.Random(seed + 1)
        patch.setattr(secrets, "SystemRandom", lambda: table_rng)
        done, events = play(kt, random.Random(seed), STEPS)
    used = {key for key in done if key.startswith("tool:")}
    assert len(used) >= 3, f"{system}: the GM's NPC tools were hardly used: {sorted(used)}"
    assert Character.objects.filter(table=kt.table, is_npc=True).count() > len(kt.npcs)
    assert conserved(kt.table) == []
    assert fold(kt.table) == stored_state(kt.table), f"{system}: the log does not replay to the state"
    everything = {seat.name: bytes_of(kt, seat, events) for seat in kt.seats}
    if any(SENTINEL.lower() in json.dumps(dict(s.sheet)).lower() for s in samples(kt.game) if s.npc):
        assert SENTINEL.lower() in everything["gm"].lower()
        for seat in (*kt.players, kt.watcher):
            assert SENTINEL.lower() not in everything[seat.name].lower(), \
                f"{system}: {seat.name} received an NPC's hidden sheet"
