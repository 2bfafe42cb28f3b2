"""What the rules give one person, beyond who may send a move (the core's check, once, before a
handler runs: the GM anything, a player the moves of the characters they play): whose hand a
character's cards go to, the hand a card only the GM sees goes to, and the parts of a player's
move only the GM may choose."""

from __future__ import annotations

from games.contract import Member
from games.core.engine import RuleError, Turn
from games.shadows.errors import GMOnly


def holder(turn: Turn, cid: str) -> int:
    """Whose hand a character's cards go to (a dealt hand, a Queen's Major Arcana): its player's,
    as the table has it now, or the GM's for a character nobody plays (an NPC), whose member id
    is the sender's when the GM sends the move (hands are dealt to member ids)."""
    character = turn.character(cid)
    owner = character.owner if character is not None else None
    if isinstance(owner, int):
        return owner
    if turn.member.is_gm:
        return turn.member.id
    raise RuleError("Nobody at the table can hold those cards.")


def gm_hand(turn: Turn) -> int | None:
    """The GM's hand, for a card the GM alone sees (a fumble's guide): the table's GM, whoever
    sends the move (seed: "the GM draws a Major Arcana card"); None at a table with no GM
    seated, where the guide waits for one."""
    return turn.gm if turn.gm is not None else (turn.member.id if turn.member.is_gm else None)


def gm_only(member: Member, refusal: str) -> None:
    """A part of a player's move only the GM may choose: a modifier, what an action costs."""
    if not member.is_gm:
        raise GMOnly(refusal)
