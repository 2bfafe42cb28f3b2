"""Shadows of Humanity played as a group would (issue 25): help asked from a player's own
panel, an Active Dodge, through the table's routes and pages."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from tests.integration.test_shadows_table import (  # noqa: F401 (sh is a fixture)
    cid, dealt_fight, ok, sh, stack, state,
)


def page(sh: dict[str, Any], who: str) -> str:
    return sh["clients"][who].get(reverse("table", args=[sh["table"].pk])).content.decode()


def test_a_player_asks_for_help_the_gm_approves_and_the_players_own_check_carries_it(sh) -> None:
    """Seed: "Assistance can be provided by a second or even a third character (subject to GM
    approval ...). With one-half the second characters' skill being added to the value of the
    attempt by the primary character"."""
    assert 'id="shadows-ask-help"' in page(sh, "ann")
    assert 'id="shadows-ask-help"' not in page(sh, "gm") and 'id="shadows-ask-help"' not in page(sh, "watcher")
    ok(sh, "ann", "ask_help", character=sh["alma"].pk, helpers=[sh["bram"].pk])
    assert "Approve <span" in page(sh, "gm") and "Approve <span" not in page(sh, "ann")
    # the GM's button posts the request's combatant ids
    ok(sh, "gm", "approve_help", character=cid(sh["alma"]), helpers=[cid(sh["bram"])])
    stack(sh, ["C5"])
    ok(sh, "ann", "prepare_check", character=sh["alma"].pk, skill="stealth", attribute="mind", complexity="normal")
    ok(sh, "ann", "check", combatant=cid(sh["alma"]), prepared="1", cards="1")
    made = state(sh)["checks"][-1]
    assert made["total"] == 5 + 4 + 3 + 8 // 2  # the card, Stealth 4, Mind 3, half of Bram's Stealth 8
    assert state(sh)["help"] == {}


def test_a_counter_as_an_active_dodge_through_the_routes(sh) -> None:
    """Seed: a counter "can also be used in combat as an Active Dodge"."""
    dealt_fight(sh, ["C14"])
    ok(sh, "ann", "attack", combatant=cid(sh["alma"]), target=cid(sh["ghoul"]), weapon="Blade",
       skill="melee", cards=["tarot:swords:5"])
    value = state(sh)["combat"]["pending"]["value"]
    ok(sh, "gm", "counter", character=sh["ghoul"].pk, target=sh["alma"].pk, suits=["cups"])
    assert state(sh)["combat"]["pending"]["value"] == value - (14 - 5)
    assert "Active Dodge" in page(sh, "watcher")
    ok(sh, "gm", "defend", combatant=cid(sh["ghoul"]))
    assert state(sh)["combat"]["attacks"][-1]["value"] == value - 9


def test_a_fate_card_waits_for_the_gms_word_on_the_page(sh) -> None:
    """Seed: "Any such modifications are pending GM's approval"."""
    stack(sh, ["C13"])  # a Queen: Alma keeps a Major Arcana
    ok(sh, "ann", "check", character=sh["alma"].pk, skill="", attribute="mind", complexity="normal", cards="1")
    [card] = state(sh)["held"][cid(sh["alma"])]
    ok(sh, "ann", "spend_arcana", combatant=cid(sh["alma"]), card=card)
    [spend] = state(sh)["spending"]
    assert "pending the GM's approval; refused, the card stays in the hand" in page(sh, "ann")
    assert f'"spend": "{spend}", "verdict": "approve"' in page(sh, "gm")
    assert '"verdict": "approve"' not in page(sh, "ann")
    ok(sh, "gm", "judge_spend", spend=spend, verdict="refuse")
    assert state(sh)["held"][cid(sh["alma"])] == [card] and state(sh)["spending"] == {}


def test_an_opposed_action_of_three_sides_from_the_gms_form(sh) -> None:
    """Seed: "two or more people trying to argue a point to convince additional parties"."""
    assert 'name="character_c"' in page(sh, "gm")
    stack(sh, ["C9", "W4", "S12"])
    ok(sh, "gm", "opposed", character_a=sh["alma"].pk, character_b=sh["bram"].pk, character_c=sh["ghoul"].pk,
       character_d="", skill_a="", skill_b="", skill_c="", skill_d="", attribute_a="mind", attribute_b="mind",
       attribute_c="mind", attribute_d="mind")
    [done] = [c for c in state(sh)["checks"] if c["kind"] == "opposed"]
    assert done["sides"] == ["Alma", "Bram", "Ghoul"] and done["winner"] == cid(sh["ghoul"])


def test_a_focus_can_be_changed_until_the_deal(sh) -> None:
    alma = cid(sh["alma"])
    ok(sh, "gm", "start_combat", characters=[sh["alma"].pk, sh["bram"].pk])
    ok(sh, "ann", "declare_focus", combatant=alma, focus="physical")
    assert f'id="focus-{alma}"' in page(sh, "ann") and "Change <span" in page(sh, "ann")
    ok(sh, "ann", "declare_focus", combatant=alma, focus="mental")
    assert state(sh)["combat"]["combatants"][alma]["focus"] == "mental"
    ok(sh, "bob", "declare_focus", combatant=cid(sh["bram"]), focus="physical")
    ok(sh, "gm", "deal")
    assert f'id="focus-{alma}"' not in page(sh, "ann")


def test_suit_meanings_are_shown_where_a_card_or_a_suit_is_chosen(sh) -> None:
    """Seed, "Minor Arcana Suit Indicators and Influences": "Cups/Chalice: Water, Emotion ...
    Social activities, Dodge, bleeding wounds"."""
    assert page(sh, "gm").count("Social activities, Dodge, bleeding wounds") == 1  # the counter's suits
    dealt_fight(sh)
    for who in ("gm", "ann"):  # beside the hands, where attack and defence cards are picked
        assert "Trade/Artisan activities, Resistance (poisons, disease, etc.)" in page(sh, who)
