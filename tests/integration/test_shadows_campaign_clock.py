"""Shadows of Humanity's clock, raise and session close through the platform's routes (issue 35):
the decided reading, "000, recovery (the seed gives none): Æssence returns in full when a scene
ends; Health returns by the character's Body each night and in full after a week; Life by 1 a
week. A fallen character stays fallen until the GM raises them (a rule move, logged).\""""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from tabletop.models import Character, Event
from tests.integration.test_shadows_table import (  # noqa: F401 (sh is a fixture)
    HTMX, cid, dealt_fight, ok, sh, state,
)


def campaign(sh: dict[str, Any], who: str, command: str, **data: Any) -> Any:
    return sh["clients"][who].post(reverse("campaign_command", args=[sh["table"].pk, command]), data, **HTMX)


def sheet(sh: dict[str, Any], key: str) -> dict[str, Any]:
    return Character.objects.get(pk=sh[key].pk).sheet


def test_a_week_on_the_gms_clock_heals_the_sheets_but_not_the_fallen(sh) -> None:
    """Nothing a rule restores is restored by editing a sheet: the GM's clock writes it back."""
    ok(sh, "gm", "adjust", character=sh["alma"].pk, field="health", value="4")
    ok(sh, "gm", "adjust", character=sh["ghoul"].pk, field="health", value="0")
    assert campaign(sh, "ann", "pass_time", span="week").status_code == 400
    assert campaign(sh, "gm", "pass_time", span="week").status_code == 200
    assert sheet(sh, "alma")["health_now"] is None  # in full after a week: blank while whole
    assert sheet(sh, "ghoul")["health_now"] == 0  # down: it stays down
    lines = list(Event.objects.filter(table=sh["table"], kind="shadows.recovered").values_list("summary", flat=True))
    assert lines == ["A week: Alma recovers (Health 4 → 20).", "Ghoul is down: nothing returns until the GM raises them."]
    ok(sh, "gm", "raise", character=sh["ghoul"].pk)
    assert sheet(sh, "ghoul")["health_now"] == 1


def test_time_does_not_pass_during_a_fight(sh) -> None:
    dealt_fight(sh)
    answer = campaign(sh, "gm", "pass_time", span="scene")
    assert answer.status_code == 400 and "End the fight before time passes" in answer.content.decode()
    assert "clock" not in state(sh) or state(sh)["clock"] == {"day": 0, "scene": 0}


def test_closing_the_session_carries_the_card_the_gm_keeps(sh) -> None:
    """Seed: "The GM may allow for up to one Major Arcana to be carried over into the next
    session": the platform's close posts ``keep_<character id>`` (close_session.html#fields)."""
    from tests.integration.test_shadows_table import stack

    gm = sh["clients"]["gm"]
    base = f"/tables/{sh['table'].pk}/sessions"
    assert gm.post(f"{base}/open/", {}, **HTMX).status_code == 200
    stack(sh, ["C13"])  # a Queen: Alma keeps a Major Arcana
    ok(sh, "ann", "check", character=sh["alma"].pk, skill="", attribute="mind", complexity="normal", cards="1")
    [card] = state(sh)["held"][cid(sh["alma"])]
    page = gm.get(reverse("table", args=[sh["table"].pk])).content.decode()
    assert f'name="keep_{sh["alma"].pk}"' in page and 'form="session-close"' in page
    assert gm.post(f"{base}/close/", {f"keep_{sh['alma'].pk}": card}, **HTMX).status_code == 200
    assert state(sh)["held"] == {cid(sh["alma"]): [card]}
    assert sheet(sh, "alma")["held_major_arcana"] == [card]
