"""The edges of a fight, the same in every system: who is in it, on which side, who is out, and
whether it is over (the decided reading "All systems, fights": who is out is the system's to say,
the out are not targets of a rule move unless a seed's rule allows it, and when one side has no
one able to act the fight is over).

A system with fights declares ``games.contract.Fights``: a ``roster(state, characters)`` of
``Fighter`` rows, read from its procedure's state and the sheets as they are now, and the move
that ends a fight. The platform reads the roster for every seat's view: the banner says "The
fight is over: <side> stands" and the GM's "End the fight" sits at its top. A system's handlers
use the helpers here to refuse a move against one who is out and to offer a standing enemy first.

Sides: a character's ``side`` sheet field when it has one (Demon City's), else the player
characters' side (``PCS``) for a PC and the NPCs' (``NPCS``) for an NPC. The GM may move one
with the move ``side_move()`` makes ("set_side", event ``side_set``, public), which a system adds
to its moves and folds with ``fold_side`` into ``state["sides"]`` (``side_of`` reads it there
first); a system's fold of its fight's end drops ``state["sides"]`` with the fight.
Pure Python: no Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from games.core.engine import Args, Event, Move, RuleError, Turn
from games.forms import Form, value

if TYPE_CHECKING:
    from games.core.facts import Character, Table

PCS = "PCs"
NPCS = "NPCs"


@dataclass(frozen=True)
class Fighter:
    """One combatant of a fight as the table knows it: its side, and whether it is out (``why``:
    the system's own word for it, "fallen", "out of the fight", "dead", "incapacitated")."""

    cid: str
    name: str
    side: str
    out: bool = False
    why: str = ""


def default_side(sheet: Mapping[str, Any] | None, is_npc: bool) -> str:
    """The side a character fights on unless the GM moves it: its sheet's ``side`` when it
    names one, else the PCs' or the NPCs'."""
    named = str((sheet or {}).get("side") or "").strip()
    return named[:40] if named else (NPCS if is_npc else PCS)


def side_of(state: Mapping[str, Any], character: Character) -> str:
    """The side of one character: the one the GM moved it to (``state["sides"]``), else its
    default."""
    moved = str((state.get("sides") or {}).get(character.cid) or "").strip()
    return moved if moved else default_side(character.sheet, character.is_npc)


SIDE_SET = "side_set"


def _parse_side(form: Form, table: Table) -> Args:
    who = table.character(value(form, "character"))
    if who is None:
        raise RuleError("Choose a character to move.")
    side = value(form, "side").strip()
    if not side or len(side) > 40:
        raise RuleError("Name the side, in at most 40 characters (PCs, NPCs, or a side of your own).")
    return {"combatant": who.cid, "side": side}


def _set_side(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    who = turn.character(args["combatant"])
    if who is None:
        raise RuleError("There is no such character at the table.")
    if side_of(state, who) == args["side"]:
        raise RuleError(f"{who.name} is already on {side_label(args['side'])}.")
    return [{"type": SIDE_SET, "combatant": who.cid, "name": who.name, "side": args["side"]}]


def side_move() -> Move:
    """The GM's move of one character to a side ("set_side": ``character`` a character's id,
    ``side`` its name): event ``side_set``, which every seat sees (a side is no secret)."""
    return Move("set_side", "Move to a side", _parse_side, _set_side)


def fold_side(state: dict[str, Any], event: Mapping[str, Any]) -> None:
    state.setdefault("sides", {})[event["combatant"]] = event["side"]


def side_line(event: Mapping[str, Any], gm: str = "The GM") -> str:
    """The log line of a move to a side, naming the GM as the system does ("The Director")."""
    return f"{gm} moves {event.get('name') or 'a character'} to {side_label(str(event.get('side', '')))}"


def side_label(side: str) -> str:
    """How a side is named in a sentence: "the PCs' side", "the demons' side", "the Crew's side"."""
    side = side.strip() or "nobody"
    return f"the {side}' side" if side.endswith("s") else f"the {side}'s side"


def standing(fighters: Iterable[Fighter]) -> list[Fighter]:
    return [f for f in fighters if not f.out]


def sides(fighters: Iterable[Fighter]) -> list[str]:
    """The sides in the fight, in the order they first appear."""
    return list(dict.fromkeys(f.side for f in fighters))


def winner(fighters: Sequence[Fighter]) -> tuple[bool, str | None]:
    """Whether the fight is over, and the side that stands (None when nobody does): over when at
    least two sides fought and at most one of them has anyone able to act. A fight of one side
    alone (the GM's foes not yet brought in) is not over."""
    if len(sides(fighters)) < 2:
        return False, None
    left = sides(standing(fighters))
    if len(left) > 1:
        return False, None
    return True, (left[0] if left else None)


def over_line(side: str | None) -> str:
    """What every seat reads of a fight that is over."""
    if side is None:
        return "The fight is over: nobody stands"
    return f"The fight is over: {side_label(side)} stands"


def find(fighters: Iterable[Fighter], cid: object) -> Fighter | None:
    return next((f for f in fighters if f.cid == str(cid)), None)


def enemies(fighters: Sequence[Fighter], cid: object) -> list[Fighter]:
    """The standing fighters on a side other than ``cid``'s, in the roster's order."""
    me = find(fighters, cid)
    return [f for f in standing(fighters) if me is None or f.side != me.side]


def default_target(fighters: Sequence[Fighter], cid: object) -> str | None:
    """The target a form offers first to ``cid``: a standing enemy, never an ally; None when
    no enemy stands."""
    found = enemies(fighters, cid)
    return found[0].cid if found else None


def targets_first(fighters: Sequence[Fighter], cid: object) -> list[Fighter]:
    """Whom ``cid`` may aim a move at, standing enemies first, then standing allies (a rule may
    let one strike a friend: it is offered, never first); the out are left out."""
    me = find(fighters, cid)
    foes = enemies(fighters, cid)
    friends = [f for f in standing(fighters) if f not in foes and (me is None or f.cid != me.cid)]
    return [*foes, *friends]


def refuse_out(fighters: Sequence[Fighter], cid: object, doing: str = "be targeted") -> None:
    """Refuses a move against one who is out, in the words the table shows: "Kemp is out of the
    fight and cannot be targeted"."""
    who = find(fighters, cid)
    if who is not None and who.out:
        raise RuleError(f"{who.name} is {who.why or 'out of the fight'} and cannot {doing}.")


def refuse_when_over(fighters: Sequence[Fighter], doing: str = "start a new round") -> None:
    """Refuses to carry a fight on once it is over ("The fight is over: the PCs' side stands;
    end the fight first")."""
    done, side = winner(fighters)
    if done:
        raise RuleError(f"{over_line(side)}: end the fight rather than {doing}.")
