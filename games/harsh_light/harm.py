"""Harm at the table: an attack's damage, the Storyteller's harm and healing, the Stamina pull to
stay conscious, and the turn passing over whoever is out of the fight (health.py holds the
track's arithmetic and the rulebook's words).

Our readings, where the seed is silent (it converts the World of Darkness and the Requiem):

- A successful attack deals its successes in damage, plus the weapon's bonus (the sheet's weapon,
  used on the attack form) and any bonus the attack names (an improvised weapon, a ruling). The
  form chooses its kind; the default is bashing unarmed and lethal with a weapon or a bonus.
- A firearm is an attack pulled with the Firearms Skill. The Requiem: "the undead take bashing
  damage from firearms"; a bullet's lethal damage is bashing to a vampire, not halved (halving is
  Masquerade's rule, not the Requiem's). A kind chosen on the form is taken as chosen (an arrow,
  an "archaic weapon", is lethal to a vampire).
- The Stamina pull to stay conscious is a simple pull of Stamina alone (no wound penalty: "your
  character's -3 wound penalty does not apply to these rolls"), one success needed: made at once
  when a wound leaves bashing in the last box, and at the start of each of the character's
  actions in a fight while it is so; once a turn. Failing it, the character is unconscious until
  healing empties the last box (or the Storyteller says otherwise on the sheet).
- Bleeding out: "each minute ... in which your character receives no medical attention ... one
  Health box currently marked with an X is upgraded". The Storyteller marks each minute (the
  panel's button deals one lethal, which on that full track upgrades a box) and heals the
  tended. A vampire in torpor does not bleed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.cards_port import Cards
from games.core.engine import RuleError
from games.core.fights import winner
from games.harsh_light import audiences, deck, health, pools, rules
from games.harsh_light import sheet as sh
from games.harsh_light.roster import fighters
from games.harsh_light.state import name, out, person, status
from games.harsh_light.writeback import after

Event = dict[str, Any]
MAX_BONUS = 10  # an attack's own damage bonus


def damage_spec(state: Mapping[str, Any], args: Mapping[str, Any], attacker: str) -> dict[str, Any]:
    """What an attack's successes are worth, read from the attack form before any card: the
    weapon's bonus, the attack's own, the kind of damage, and whether it is a firearm."""
    sheet = person(state, attacker)
    armed = (args.get("weapon") or "") not in ("", "none", "0")
    if armed and not sheet.get("weapon"):
        raise RuleError(f"{name(state, attacker)} has no weapon on its sheet: name one there first.")
    extra = args.get("damage_bonus") or 0
    chosen = args.get("damage") or None
    default = health.LETHAL if armed or extra else health.BASHING
    return {"kind": chosen or default, "chosen": chosen is not None, "extra": extra,
            "weapon": sheet["weapon"] if armed else "", "weapon_bonus": int(sheet["weapon_damage"]) if armed else 0,
            "firearm": args.get("skill") == "firearms"}


def attack_damage(state: Mapping[str, Any], spec: Mapping[str, Any], attacker: str, target: str,
                  successes: int) -> tuple[int, str, bool]:
    """The points and kind an attack's ``successes`` deal ``target``, and whether the Requiem
    turned a firearm's lethal to bashing. No success, no damage."""
    if successes < 1:
        return 0, spec["kind"], False
    points = successes + spec["weapon_bonus"] + spec["extra"]
    bullet = spec["firearm"] and not spec["chosen"] and spec["kind"] == health.LETHAL
    if bullet and health.is_vampire(state["characters"][target]):
        return points, health.BASHING, True
    return points, spec["kind"], False


def damaged(state: Mapping[str, Any], target: str, points: int, kind: str, *, by: str | None = None,
            successes: int | None = None, spec: Mapping[str, Any] | None = None, firearm: bool = False,
            reason: str = "") -> Event:
    """The event of ``points`` of ``kind`` on ``target``'s track, with the track it leaves
    (``track``: health.shown, everyone's). An NPC attacker's weapon (its name and bonus) is the
    GM's part (audiences.py); the damage itself is everyone's."""
    after_wound = health.of(state["characters"][target]).hurt(kind, points)
    sheet = {**state["characters"][target], **after_wound.counts()}
    event: Event = {"type": "damaged", "combatant": target, "by": by, "points": points, "kind": kind,
                    "health": after_wound.counts(), "size": after_wound.size, "firearm": firearm, "reason": reason,
                    "track": health.shown(sheet)}
    if successes is not None:
        event["successes"] = successes
    if spec is not None and (spec["weapon"] or spec["extra"]):
        event["weapon"] = {"name": spec["weapon"], "bonus": spec["weapon_bonus"], "extra": spec["extra"]}
        if audiences.npc(state, by):
            event["gm_figures"] = ["weapon"]
    return event


def _then(state: Mapping[str, Any], events: list[Event], new: Event) -> Mapping[str, Any]:
    events.append(new)
    return after(state, new)


def keep_conscious(state: Mapping[str, Any], cid: str, cards: Cards) -> Event:
    """The Stamina pull to stay conscious: Stamina alone, no wound penalty, one success."""
    sheet = state["characters"][cid]
    pool = pools.Pool((("Stamina", sh.attribute(sheet, "stamina")),))
    again = sh.again(sheet)
    tokens, values = ([], ()) if rules.is_automatic(pool.size) else deck.pull_cards(cards, again)
    result = rules.resolve(pool.size, values, again=again)
    judged = result.to_dict()
    judged.pop("pool")
    record = {"combatant": cid, "name": name(state, cid), "kind": "consciousness", "label": "staying conscious",
              "pool": pool.to_dict(), "cards": tokens, **judged}
    track = health.shown({**sheet, "unconscious": not result.succeeded})
    return audiences.pull_event(state, {"type": "consciousness_pulled", "combatant": cid, "record": record,
                                        "conscious": result.succeeded, "track": track})


def after_harm(state: Mapping[str, Any], cid: str, cards: Cards) -> list[Event]:
    """What a wound brings at once: the Stamina pull when bashing fills the last box (once a turn
    in a fight), and the turn passing on when the one acting is out."""
    events: list[Event] = []
    if health.must_keep_conscious(state["characters"][cid]) and not (
            state["combat"] and status(state, cid).get("kept_conscious")):
        state = _then(state, events, keep_conscious(state, cid, cards))
    if state["combat"] and state["acting"] == cid and out(state, cid):
        events += start_turn(state, cards)
    return events


def start_turn(state: Mapping[str, Any], cards: Cards) -> list[Event]:
    """The turn has come to ``state["acting"]``: its Stamina pull if its last box holds bashing,
    and, while the one acting is out, the turn passing on to the next (a new turn after the last).
    Once one side has no one able to act, the fight is over (roster.py): the turn stays where it
    is and the Storyteller ends the fight. A fight of one side alone in which nobody can act ends
    here."""
    events: list[Event] = []
    for _ in range(3 * len(state["order"]) + 1):  # each passes at most once a round, twice round
        if not state["combat"] or state["acting"] is None or winner(fighters(state))[0]:
            break
        cid = state["acting"]
        if health.must_keep_conscious(state["characters"][cid]) and not status(state, cid).get("kept_conscious"):
            state = _then(state, events, keep_conscious(state, cid, cards))
        if not out(state, cid) or winner(fighters(state))[0]:  # its own Stamina pull may end the fight
            break
        if all(out(state, c) for c in state["order"]):
            state = _then(state, events, {"type": "combat_ended", "why": "nobody in the fight can act"})
            break
        order = state["order"]
        index = order.index(cid) + 1
        wraps = index >= len(order)
        state = _then(state, events, {"type": "turn_ended", "combatant": cid, "out": True,
                                      "words": health.state_words(state["characters"][cid]),
                                      "next": order[0] if wraps else order[index], "new_turn": wraps,
                                      "turn": state["turn"] + 1 if wraps else state["turn"]})
    return events


def harm(state: Mapping[str, Any], args: Mapping[str, Any], cid: str, cards: Cards) -> list[Event]:
    """The Storyteller's harm: a fall, fire, sunlight, a minute bleeding out untended."""
    sheet = person(state, cid)
    if health.of(sheet).grave() == health.DEAD:
        raise RuleError(f"{name(state, cid)} is {health.state_words(sheet)}: no more harm to do.")
    event = damaged(state, cid, args.get("points") or 1, args.get("kind") or health.LETHAL,
                    reason=args.get("reason") or "")
    return [event, *after_harm(after(state, event), cid, cards)]


def heal(state: Mapping[str, Any], args: Mapping[str, Any], cid: str) -> list[Event]:
    """The Storyteller's healing, as time or a power allows: the least severe wound first (the
    rulebook: bashing in fifteen minutes a box, lethal in two days, aggravated in a week), or
    only wounds of one kind. Healing that empties the last box wakes an unconscious character."""
    points, kind = args.get("points") or 1, args.get("kind") or None
    sheet = person(state, cid)
    before = health.of(sheet)
    if not (before.counts()[kind] if kind else before.filled):
        raise RuleError(f"{name(state, cid)} has no {kind + ' ' if kind else ''}wounds to heal.")
    healed = before.heal(points, kind)
    woke = bool(sheet.get("unconscious")) and healed.last() != health.BASHING
    track = health.shown({**sheet, **healed.counts(), "unconscious": bool(sheet.get("unconscious")) and not woke})
    return [{"type": "healed", "combatant": cid, "points": before.filled - healed.filled, "kind": kind,
             "health": healed.counts(), "size": healed.size, "woke": woke, "track": track}]
