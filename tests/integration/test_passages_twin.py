"""Issue 23, every seat unfolds the log: a Passages line of a secret NPC (its check, in or out of a
scene, its roll in a contest, a practice, its Combat Roll or one against it, a roll-off's wound)
unfolds for the players and the spectators to a public working built from the event's public
part: the d100 and its band, the level and the points dealt (every roll is made in the open), the
seed's rule, and "the Director's figure" where the NPC's BASE, Selected Combat or Defense, weapon
or armour enter. The Director unfolds the whole working (its private twin)."""

from __future__ import annotations

from typing import Any

from games.passages.working import ATTACK_RULE, BAND_RULES, DAMAGE_RULE, PAIRING_RULES, PRACTICE_RULE
from tests.integration.test_passages_no_leak import leaked, urgluch  # noqa: F401 (a fixture)
from tests.integration.test_passages_table import cid, last, post, table  # noqa: F401 (a fixture)
from tests.integration.test_passages_working import HOW, page_and_export

SEATS = ("ann", "watcher")


def unfolds(t: dict[str, Any], *public: str, director: tuple[str, ...]) -> None:
    """Each seat's page and export hold the public working and no figure of the Urgluch's; the
    Director's the whole working."""
    for who in SEATS:
        text = page_and_export(t, who)
        assert leaked(text) == [], who
        assert HOW in text, who
        for said in public:
            assert said in text, (who, said)
    gm = page_and_export(t, "gm")
    for said in director:
        assert said in gm, said


def test_an_npc_s_check_unfolds_for_everyone_its_base_the_director_s(urgluch, monkeypatch) -> None:  # noqa: F811
    """Seed, CHECKS: "SKILLS SUCCESS: A roll equal to or less than Skill BASE and more than
    1/2(Skill BASE)": the d100 (30) and its band are everyone's; the Urgluch's BASE 44 and the
    Double Down 22 counted from it are the Director's."""
    t = urgluch
    assert post(t, "gm", "check", {"character": t["urgluch"].pk, "skill": "Vexmire Lore", "mode": "check"},
                check=True, rolls=(30,), monkeypatch=monkeypatch).status_code == 200
    rolled = last(t, "check_rolled")
    assert rolled.payload["working"]["rule"] == BAND_RULES["success"] and "44" not in str(rolled.payload)
    unfolds(t, "the BASE of Vexmire Lore: the Director's figure", "d100 roll: 30",
            "30 is at most the BASE and above Double Down: a Success", BAND_RULES["success"],
            director=("Vexmire Lore BASE 44", "30 is at most BASE 44 and above Double Down 22: a Success"))


def test_an_npc_s_checks_in_a_contest_unfold_for_everyone(urgluch, monkeypatch) -> None:  # noqa: F811
    """Seed, CHECKS: "DOUBLE DOWN SUCCESS: A roll equal to or less than 1/2 Skills BASE value" and
    "DOUBLE UP SUCCESS: A roll higher than the Skill BASE and lower than or equal to double the
    Skill BASE"; "A player may 'practice' any skill, but they will automatically succeed": the
    Urgluch's roll in a contest, its check in the scene and its practice, none with its BASE."""
    t = urgluch
    npc = cid(t["urgluch"])
    assert post(t, "gm", "contest_start", {"characters": [t["trayer"].pk, t["urgluch"].pk]}).status_code == 200
    post(t, "gm", "contest_roll", {"combatant": npc, "skill": "Vexmire Lore"}, rolls=(12,), monkeypatch=monkeypatch)
    assert last(t, "contest_rolled").payload["working"]["rule"] == BAND_RULES["double_down"]
    # a party rolls in the contest alone (issue 27): the Urgluch checks beside the next one, broken off
    post(t, "gm", "end")
    post(t, "gm", "contest_start", {"characters": [t["trayer"].pk, t["betty"].pk, t["urgluch"].pk]})
    post(t, "gm", "contest_break_off", {"combatant": npc})
    post(t, "gm", "check", {"combatant": npc, "skill": "Vexmire Lore"}, rolls=(50,), monkeypatch=monkeypatch)
    assert last(t, "checked").payload["working"]["rule"] == BAND_RULES["double_up"]
    post(t, "gm", "practice", {"combatant": npc, "skill": "Vexmire Lore"})
    assert last(t, "practised").payload["working"]["rule"] == PRACTICE_RULE
    unfolds(t, "12 is at most Double Down: a Double Down wild success", BAND_RULES["double_down"],
            "50 is above the BASE and at most Double Up: a Double Up success", BAND_RULES["double_up"],
            "Vexmire Lore practised: no roll, it succeeds", PRACTICE_RULE,
            director=("12 is at most Double Down 22: a Double Down wild success",
                      "50 is above BASE 44 and at most Double Up 88: a Double Up success",
                      "Vexmire Lore (BASE 44) practised: no roll, it succeeds"))


def test_combat_rolls_and_wounds_with_an_npc_unfold_for_everyone(urgluch, monkeypatch) -> None:  # noqa: F811
    """Seed, COMBAT: "Roll your Combat Roll and add your Selected Combat value. Compare the sum
    with the Selected Defense of the Opponent" and "Damage from an Attack Action can be no more
    than the value of the Attacker's Skill. Once the Damage is determined, it is mitigated/
    exacerbated by armor type": the dice, the levels and the points each wound deals are
    everyone's; the Urgluch's Selected Combat 87 and Defense 61, its weapon and armour are the
    Director's (the torch example's Timing, so that both blows land)."""
    t = urgluch
    trayer, npc = cid(t["trayer"]), cid(t["urgluch"])
    post(t, "gm", "combat_start", {"characters": [t["trayer"].pk, t["urgluch"].pk]})
    post(t, "ann", "declare", {"combatant": trayer, "stance": "in", "target": npc})
    post(t, "gm", "declare", {"combatant": npc, "stance": "in", "target": trayer})
    post(t, "gm", "timing", {"combatant": npc, "modifier": "-80", "reason": "fears the torch"})
    post(t, "ann", "combat_roll", {"combatant": trayer}, rolls=(60,), monkeypatch=monkeypatch)
    mine = last(t, "combat_rolled")
    assert "Urgluch's Selected Defense (the Director's figure)" in mine.payload["working"]["steps"][-1]
    post(t, "gm", "combat_roll", {"combatant": npc}, rolls=(20,), monkeypatch=monkeypatch)
    theirs, pairing = last(t, "combat_rolled"), last(t, "pairing_resolved")
    assert theirs.payload["working"]["rule"] == ATTACK_RULE
    assert pairing.payload["working"]["rule"] == PAIRING_RULES[pairing.payload["event"]["outcome"]] + DAMAGE_RULE
    unfolds(t, "Combat Roll (d100): 60", "is above Urgluch's Selected Defense (the Director's figure): ",
            "Combat Roll (d100): 20", "Timing -80: -60", "+ Selected Combat: the Director's figure",
            "the sum is above Trayer's Selected Defense", ATTACK_RULE,
            "Trayer's damage, no more than their Skill, and Urgluch's armour: the Director's figures: "
            "1 off Wounds and Fatigue",
            "Urgluch's damage, no more than their Skill, and Trayer's armour: the Director's figures: "
            "4 off Wounds and Fatigue", DAMAGE_RULE,
            director=("+ Selected Combat (Zorblax Strike) 87 = 27", "Selected Defense (Quorvish Parry) 61",
                      "Urgluch's Glaivequill damage 9"))
