"""The target's answer to a resisted pull: Willpower for +2 at the moment of the attack.

Seed: Willpower "adds 2 against a Resisted test (including attacks – spending a Willpower for
+2 Defence can be a lifesaver in emergencies)"; "You may only spend one Willpower per turn".

Our reading (issue 26): a defender should not have to race the attacker to spend the point, nor
spend it in advance on its own action to see it lapse. So a pull resisted by a character's
Defence or Resistance trait, when that character could still spend a point this turn, waits
before any card: the target's panel offers "spend Willpower for +2" or "take it", and the pull
is made when the target answers (fight.answer) or the Storyteller moves on (the same move, sent
without the point). Nothing is drawn or spent while it waits; the attack's own checks (whose
turn, the attacker's Willpower) are made when it is declared and again when it is pulled.

Whether an NPC target could spend a point (its Willpower left) is the GM's figure: an NPC's
window opens whenever it has not spent its point this turn (an act everyone saw), so its
opening says nothing of its sheet.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from games.core.engine import RuleError
from games.harsh_light import audiences
from games.harsh_light import sheet as sh
from games.harsh_light.state import name, out, status

Event = dict[str, Any]


def opens(state: Mapping[str, Any], target: str | None, target_parts: Collection[int]) -> bool:
    """Whether a pull against ``target`` waits for its answer (a rule's view, state.in_play):
    one of its traits resists it (``target_parts``: Defence applied, or a Resistance trait), and
    it could still spend this turn's point on +2 (none spent, none kept to resist, not out of the
    fight, points left on a player's character's sheet)."""
    if target is None or not target_parts or out(state, target):
        return False
    now = status(state, target)
    if now["willpower_spent"] or now["resist_willpower"]:
        return False
    return audiences.npc(state, target) or sh.willpower_points(state["characters"][target]) > 0


def opened(state: Mapping[str, Any], cid: str, target: str, args: Mapping[str, Any], against: str) -> Event:
    """The event of a pull that waits for ``target``'s answer, keeping what was sent (an NPC
    attacker's, with its modifier, the GM's)."""
    event = {"type": "reaction_opened", "combatant": cid, "target": target, "against": against,
             "label": args.get("label") or ("an attack" if against == "Defence" else "a pull"),
             "args": {k: v for k, v in args.items() if v not in (None, "", False)}}
    return {**event, "gm_figures": ["args"]} if audiences.npc(state, cid) else event


def require_none(state: Mapping[str, Any], what: str) -> None:
    """Nothing else is pulled, dodged or ended while a pull waits for its target's answer."""
    waiting = state.get("reaction")
    if waiting:
        raise RuleError(f"{name(state, waiting['combatant'])}'s pull waits for {name(state, waiting['target'])}'s "
                        f"answer (Willpower for +2, or take it): {what} comes after it.")
