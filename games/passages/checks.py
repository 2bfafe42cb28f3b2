"""Checks, challenges and practice: in a contest or fight (the ``check`` and ``practice``
moves) and outside one (the one-off check, ``roll_check``).

Seed: "Checks occur in the story when their success/failure affects the Conditions of a scene,
the Director deems them necessary, and the Persona is not opposed."
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.engine import RuleError, Turn
from games.core.rng import Rng
from games.passages import persona, rules
from games.passages import state as st
from games.passages.access import find, require_able, require_turn_open
from games.passages.errors import BadValue, NotNow
from games.passages.events import Event
from games.passages.narrate import describe_check
from games.passages.sheet import clean

CHECK, CHALLENGE, PRACTICE = "check", "challenge", "practice"
MODES = (CHECK, CHALLENGE, PRACTICE)


def forced_challenge(state: Mapping[str, Any], cid: str) -> bool:
    """Seed: "A Persona can be attacked (thus the object of COMBAT, without being subject to
    it. In these cases, they can still use non-combat Skills, but any such Action will be a
    CHALLENGE, not a CHECK." In a fight, a check waits for every Declaration (``_action_left``),
    so whether anyone attacks the Persona is known whatever order the table clicked in."""
    if state["mode"] != st.COMBAT:
        return False
    declared = state["combat"]["declared"]
    if declared.get(cid, {}).get("stance") == st.IN:
        return False
    return any(d.get("stance") == st.IN and d.get("target") == cid for d in declared.values())


def _action_left(state: Mapping[str, Any], person: Mapping[str, Any]) -> None:
    """In a fight, a check (or a practice) is the Action a Persona declared OUT to take: one a
    Turn, once every Persona has declared. Seed: "Combatants state their Intent and Timing.
    Non-combatants declare their Actions only." Reading: one IN makes its Combat Roll and no
    check; one resting or tending does that and nothing else."""
    if state["mode"] == st.CONTEST and person["id"] in state["contest"]["active"]:
        raise NotNow(f"{person['name']} rolls in the contest, once a round.")
    if state["mode"] != st.COMBAT:
        return
    fight, name = state["combat"], person["name"]
    require_turn_open(state)
    if fight["phase"] != st.TIMING:
        raise NotNow(f"A check in a fight waits for every Declaration (whether {name} is attacked "
                     "makes it a challenge).")
    mine = fight["declared"].get(person["id"]) or {}
    if mine.get("stance") == st.IN:
        raise NotNow(f"{name} declared IN: their Action this Turn is the Combat Roll.")
    if mine.get("action") in (st.REST, st.TEND, "unconscious"):
        doing = {st.REST: "rests", st.TEND: "tends wounds"}.get(mine.get("action", ""), "takes no Action")
        raise NotNow(f"{name} {doing} this Turn, as declared.")
    if person["id"] in fight.get("acted", ()):
        raise NotNow(f"{name} has already made their Action this Turn.")


def called_challenge(state: Mapping[str, Any], person: Mapping[str, Any], args: Mapping[str, Any], turn: Turn) -> bool:
    """Seed: "each can be a Check OR a Challenge by choice of the Director": the Director's call
    for this roll (``challenge``, refused from a player), or a Condition the Director set on the
    Persona (``hindered``, lasting until lifted, or a lasting condition whose effect is
    ``hindered``, ending by itself)."""
    if args.get("challenge") and not turn.member.is_gm:
        raise BadValue("The Director decides whether a check is a challenge.")
    return bool(args.get("challenge")) or bool(person.get("hindered")) or st.hindered(state, person["id"])


def called_for(state: Mapping[str, Any], call: str | None, *, is_gm: bool) -> str:
    """Whether a one-off roll is a Check or a Challenge. Seed: "each can be a Check OR a
    Challenge by choice of the Director"; "CHALLENGES are Actions hindered by certain
    circumstances, or specific Conditions decided on by the Director". The Director calls it,
    roll by roll (``call``), or by the standing call the Conditions carry (``state["hinder"]``,
    set with them: the storm that makes every roll on the sinking ship a Challenge); a player
    rolls as that call stands. A player asks the Director for another call at the table; a
    call of their own that differs is refused."""
    standing = CHALLENGE if state.get("hinder") else CHECK
    if call is None or call == standing:
        return standing
    if not is_gm:
        word = "a Challenge" if standing == CHALLENGE else "a Check"
        raise BadValue(f"Whether a roll is a Check or a Challenge is the Director's choice: it is {word} now, "
                       "as the Director set it. Ask the Director for another call.")
    return call


def _skill_in_scene(state: Mapping[str, Any], args: Mapping[str, Any], outside: str) -> tuple[dict[str, Any], str, int]:
    """(the Persona, the skill as its sheet spells it, its BASE), for a Persona of the scene able
    to take its Action now; ``outside`` is the refusal when no contest or fight is under way."""
    if state["mode"] == st.IDLE:
        raise NotNow(f"No contest or fight is under way: {outside}.")
    person = find(state, args.get("combatant"))
    require_able(person)
    _action_left(state, person)
    return (person, *persona.skill(person, args.get("skill")))


def may_check(state: Mapping[str, Any]) -> list[str]:
    """The Personae of the scene who may roll a check now (the panel offers them the form): able,
    not a party still in the contest, with their Action left in a fight."""
    found = []
    for cid in st.present(state):
        try:
            require_able(state["personae"][cid])
            _action_left(state, state["personae"][cid])
        except RuleError:
            continue
        found.append(cid)
    return found


def check(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """A check (or, by the Director's choice, a challenge) by a Persona in the scene."""
    assert turn.rng is not None
    person, name, base = _skill_in_scene(state, args, "roll a one-off check instead")
    forced = forced_challenge(state, person["id"])
    result = rules.check(name, base, turn.rng, challenge=called_challenge(state, person, args, turn) or forced)
    return [{"type": "checked", "combatant": person["id"], "check": result.to_dict(), "forced": forced}]


def tend_roll(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """The tending a Persona declared, rolled once every Declaration is in (``recovery`` has
    the reading): its skill check, a challenge when the Director calls one or it is attacked.
    What it tends is counted at the Resolution Point, from the patient's untended points then."""
    assert turn.rng is not None
    person = find(state, args.get("combatant"))
    require_able(person)
    fight = state["combat"]
    require_turn_open(state)
    if fight["phase"] != st.TIMING:
        raise NotNow(f"A tending waits for every Declaration (whether {person['name']} is attacked makes it "
                     "a challenge).")
    mine = fight["declared"].get(person["id"]) or {}
    if mine.get("action") != st.TEND:
        raise NotNow(f"{person['name']} did not declare a tending this Turn.")
    if person["id"] in fight.get("acted", ()):
        raise NotNow(f"{person['name']} has already made their Action this Turn.")
    challenge = called_challenge(state, person, args, turn)
    name, base = persona.skill(person, args.get("skill"))
    forced = forced_challenge(state, person["id"])
    result = rules.check(name, base, turn.rng, challenge=challenge or forced)
    return [{"type": "tend_rolled", "combatant": person["id"], "patient": mine["patient"], "check": result.to_dict(),
             "forced": forced}]


def practice(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """Seed: "A player may 'practice' any skill, but they will automatically succeed ...
    There is no need to roll dice". No die is rolled."""
    person, name, base = _skill_in_scene(state, args, "practise through the one-off check")
    return [{"type": "practised", "combatant": person["id"], "check": rules.practice(name, base).to_dict()}]


def roll_check(data: Mapping[str, Any], *, name: str, skill: str, mode: str, rng: Rng,
               secret: bool = False) -> tuple[dict[str, Any], str]:
    """Rolls a check, a challenge or a practice for the Persona whose sheet is ``data``:
    (the event's data, its log line). A ``secret`` sheet's (an NPC's): the line everyone reads
    holds the roll and its band, the data's ``gm_line`` (audiences.py: the Director's alone)
    the figures too."""
    me = {**clean(data), "id": "me", "name": name}
    require_able(me)
    found, base = persona.skill(me, skill)
    if mode == PRACTICE:
        result = rules.practice(found, base)
    else:
        result = rules.check(found, base, rng, challenge=mode == CHALLENGE)
    data_out = result.to_dict()
    line = describe_check(name, data_out)
    if secret:
        return {**data_out, "gm_line": line}, describe_check(name, data_out, secret=True)
    return data_out, line
