"""The edges of a fight (games/core/fights.py, the decided reading "All systems, fights"), as
Shadows of Humanity reads them: the roster the platform shows (sides, and who is out: fallen),
whom an attack form offers first and with which skill, the GM's move of a combatant to a side,
the guards that keep a fight that is over from going on, and what ends with the fight.

Who is out: a combatant that has fallen (no Health left: down; no Life left: dead; seed: damage
to Health is how "to put someone down (for them to go unconscious or become physically
"incapacitated")"), or that the GM has taken out of the fight. Everyone watches it fall, so the
roster every seat reads is drawn from that (``state.fallen_as_seen``): a GM's correction of a
fallen NPC's track is the GM's figure, and one brought back above nothing comes back into the
fight at the next round. The GM's own guards read the tracks as they are now (``roster_now``),
so a fight the GM has revived by a correction is not refused its next round.

Sides: the PCs' and the NPCs' unless the GM moves a combatant (``set_side``); a side belongs to
the fight and ends with it (``FOLDS``, ``combat_ended``), as an unused counter lapses with it
(the decided reading: "an unused counter lapses at the end of the round"; fight_record.py).
Pure Python: no Django."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.contract import Character, Seat
from games.core import fights
from games.core.engine import Args, Event, Handler, RuleError, Turn
from games.shadows import state as st
from games.shadows.fight_record import FIGHT_FOLDS

# Reading: the seed has no list of attack skills (a sheet names its skills freely: "Melee: 8").
# The skill an attack form offers first is the character's best among those whose name says an
# attack of the weapon's kind, or names the weapon; with none, no skill (an untrained attack),
# which the player may change. Accuracy is its own box on the form (against cover or movement).
ATTACK_WORDS: dict[str, frozenset[str]] = {
    "physical": frozenset((
        "melee", "fight", "fighting", "combat", "brawl", "brawling", "unarmed", "martial", "boxing", "wrestling",
        "claw", "claws", "bite", "rending", "sword", "swords", "swordsmanship", "fencing", "blade", "blades",
        "knife", "knives", "dagger", "axe", "club", "mace", "spear", "polearm", "whip", "firearms", "firearm",
        "gun", "guns", "gunnery", "pistol", "pistols", "rifle", "rifles", "shotgun", "marksmanship",
        "shooting", "archery", "bow", "bows", "crossbow", "throwing", "thrown", "weapon", "weapons",
        "strike", "striking", "attack")),
    "mana": frozenset((
        "magic", "spell", "spells", "spellcasting", "casting", "sorcery", "mana", "arcane", "arcana",
        "wizardry", "evocation", "wand", "wands", "staves", "attack")),
    "spiritual": frozenset((
        "spirit", "spiritual", "faith", "prayer", "channeling", "channelling", "theurgy", "exorcism",
        "ritual", "miracle", "miracles", "attack")),
}
NOT_FIRST = frozenset(("accuracy",))


def side(state: Mapping[str, Any], person: Mapping[str, Any]) -> str:
    """A combatant's side: the one the GM moved it to, else the NPCs' for an NPC and the PCs'
    for a player's character (the fight's record says which it is)."""
    moved = str((state.get("sides") or {}).get(person["id"]) or "").strip()
    return moved or fights.default_side(None, bool(person.get("npc")))


def _why_seen(person: Mapping[str, Any]) -> str:
    if not person["in_fight"]:
        return "out of the fight"
    return st.fallen_as_seen(person) if person.get("fallen") else ""


def _why_now(person: Mapping[str, Any]) -> str:
    return "out of the fight" if not person["in_fight"] else st.harm(person)


def _rows(state: Mapping[str, Any], why: Callable[[Mapping[str, Any]], str]) -> list[fights.Fighter]:
    fight = state.get("combat")
    if not fight:
        return []
    people = fight["combatants"]
    return [fights.Fighter(cid, people[cid]["name"], side(state, people[cid]), bool(why(people[cid])),
                           why(people[cid])) for cid in fight["order"]]


def roster(state: Mapping[str, Any], characters: Mapping[str, Character] | None = None) -> list[fights.Fighter]:
    """``Fights.roster``: the fight under way as every seat watched it (module docstring)."""
    return _rows(state, _why_seen)


def roster_now(state: Mapping[str, Any]) -> list[fights.Fighter]:
    """The fight as the tracks stand now (the GM's figures: for the GM's guards)."""
    return _rows(state, _why_now)


def joined(names: Sequence[str]) -> str:
    """"Alma", "Alma and Bram", "Alma, Bram and the Ghoul"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# --- the GM's guards and moves ------------------------------------------------------------

def not_when_over(handler: Handler, doing: str) -> Handler:
    """``handler`` refused once one side has no one able to act (the decided reading: "when
    one side has no one able to act, the fight is over"): the GM ends the fight, or brings
    someone in (``add_combatant``) or back (``adjust``) first. A move by or at one who is out
    is left to the handler, whose refusal names them ("Ghoul is down: no actions")."""
    def guarded(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
        if state.get("combat"):
            now = roster_now(state)
            named = [fights.find(now, args.get(key)) for key in ("combatant", "target")]
            if not any(f is not None and f.out for f in named):
                fights.refuse_when_over(now, doing)
        return handler(state, args, turn)
    guarded.__doc__ = handler.__doc__
    return guarded


def not_at_the_out(handler: Handler, key: str, doing: str) -> Handler:
    """``handler`` refused when the combatant ``args[key]`` names is out of the fight under way:
    nothing in the seed aims a move at one who has fallen ("Ghoul is down and cannot be
    countered")."""
    def guarded(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
        fights.refuse_out(roster(state), args.get(key), doing)
        return handler(state, args, turn)
    guarded.__doc__ = handler.__doc__
    return guarded


SIDE_MOVE = fights.side_move()


def set_side(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """The GM moves a combatant of the fight under way to a side (``games.core.fights``): a
    side belongs to a fight, so there must be one and the character must be in it."""
    fight = st.combat(state)
    if str(args["combatant"]) not in fight["combatants"]:
        raise RuleError("Only someone in the fight takes a side in it: bring them in first.")
    return SIDE_MOVE.handle(state, args, turn)


def _combat_ended(state: dict[str, Any], event: Mapping[str, Any]) -> None:
    FIGHT_FOLDS["combat_ended"](state, event)
    state.pop("sides", None)  # a side is the fight's (games/core/fights.py)


# The folds of these edges, over the combat's own (events.py).
FOLDS: dict[str, Callable[[dict[str, Any], Mapping[str, Any]], None]] = {
    fights.SIDE_SET: fights.fold_side,
    "combat_ended": _combat_ended,
}


# --- what the panel shows -----------------------------------------------------------------

def _words(name: str) -> set[str]:
    return {w for w in name.lower().replace("-", "_").replace(" ", "_").split("_") if w}


def best_attack_skill(person: Mapping[str, Any], weapon: Mapping[str, Any] | None) -> str:
    """The skill an attack with ``weapon`` is offered with first (``ATTACK_WORDS``): the
    highest of the character's skills that say an attack of its kind or name the weapon; ""
    (no skill) when none does."""
    wanted = set(ATTACK_WORDS.get(str((weapon or {}).get("type") or "physical"), ()))
    wanted |= _words(str((weapon or {}).get("name") or ""))
    fitting = [(int(v), -i, k) for i, (k, v) in enumerate((person.get("skills") or {}).items())
               if k not in NOT_FIRST and _words(k) & wanted]
    return max(fitting)[2] if fitting else ""


def fight_edges(state: Mapping[str, Any], seat: Seat, view: dict[str, Any] | None) -> dict[str, Any] | None:
    """The fight's part of the panel (panel_fight.fight_view) with its edges: ``over`` (the
    line every seat reads, once one side has no one able to act), ``over_now`` (the GM's: by
    the tracks as they are now), each combatant's ``side``, and ``whom``: for each standing
    combatant, whom its attack form offers (standing foes first, then standing allies, the
    out never) and what it offers first: a foe (never an ally: with no foe standing, nobody
    until chosen) and, where the seat may see the sheet, its best attack skill. Once the fight
    is over nobody acts next: the act forms give way to the line that says so."""
    if view is None:
        return None
    fighters = roster(state)
    done, winner = fights.winner(fighters)
    done_now = fights.winner(roster_now(state))[0] if seat.is_gm else done
    people = state["combat"]["combatants"]
    weapon = (state.get("weapons") or [None])[0]
    whom = {}
    for f in fighters:
        offered = fights.targets_first(fighters, f.cid)
        foes = {e.cid for e in fights.enemies(fighters, f.cid)}
        whom[f.cid] = {"targets": [{"id": o.cid, "name": o.name, "foe": o.cid in foes} for o in offered],
                       "first": fights.default_target(fighters, f.cid) or "",
                       "skill": best_attack_skill(people[f.cid], weapon) if seat.sees_sheet(f.cid) else ""}
    moved = state.get("sides") or {}
    out = {**view, "over": fights.over_line(winner) if done else "", "over_now": done_now, "whom": whom,
           "sides": [{"id": f.cid, "name": f.name, "side": f.side, "label": fights.side_label(f.side),
                     "moved": f.cid in moved} for f in fighters],
           "side_names": list(dict.fromkeys([fights.PCS, fights.NPCS, *(f.side for f in fighters)]))}
    if done:
        out["next"] = None
        out["combatants"] = [{**row, "next": False} for row in view["combatants"]]
    return out


def over_turn(state: Mapping[str, Any]) -> dict[str, Any] | None:
    """Whose move it is once the fight is over: the GM's, to end it (the platform's banner says
    so to every seat, and carries the GM's "End the fight")."""
    done, winner = fights.winner(roster(state))
    if not done:
        return None
    return {"combatant": None, "gm": True, "says": fights.over_line(winner), "prompt": "end the fight"}


def awaiting(names: Mapping[str, str], does: str, do: str, prompt: str) -> dict[str, Any]:
    """A step that waits for several at once (every focus of a round, each check set up): the
    turn names them all (``waiting``, ``prompts``: games/contract.py, Panel), so that each
    player it waits for reads "Your turn" and everyone else "Alma, Bram and the Ghoul choose a
    focus". ``does``/``do``: the verb for one and for several; ``prompt``: each one's, with
    ``{name}``."""
    cids = list(names)
    who = joined([names[c] for c in cids])
    return {"combatant": cids[0], "gm": False, "says": f"{who} {does if len(cids) == 1 else do}",
            "prompt": prompt.format(name=names[cids[0]]), "waiting": cids,
            "prompts": {c: prompt.format(name=names[c]) for c in cids}}
