"""Report Card's rules for one card: ranks, critical cards, the Wheel, closeness.

Seed 004 is the specification; each rule below quotes it where it is coded. Pure functions
over card ids (``tarot:<suit>:<1-14>``, ``tarot:major:<0-21>``, tokens may end in ``/r``).

A card's *class* is all a rank needs to judge it (and all the odds enumerate): ``"cs"`` (a
Critical Success card: the Fool, the World, the Sun or the character's own Major Arcana),
``"cf"`` (the Tower, the Devil, Death), ``"wheel"`` (the Wheel of Fortune, which draws a
second card), ``"major"`` (any other Major Arcana) or the Minor Arcana's value, 1 (Ace)
to 14 (King).
"""

from __future__ import annotations

from typing import Any

from games.core.cards import Card, OrientedCard
from games.report_card.errors import BadInput

RANKS = ("automatic", "trivial", "easy", "medium", "hard", "unlikely", "impossible")
RANK_LABELS = {rank: rank.capitalize() for rank in RANKS}

CRITICAL_SUCCESS, SUCCESS, FAILURE, CRITICAL_FAILURE = (
    "critical_success", "success", "failure", "critical_failure")
OUTCOMES = (CRITICAL_SUCCESS, SUCCESS, FAILURE, CRITICAL_FAILURE)  # best first
LEVEL = {CRITICAL_SUCCESS: 3, SUCCESS: 2, FAILURE: 1, CRITICAL_FAILURE: 0}
OUTCOME_LABELS = {CRITICAL_SUCCESS: "critical success", SUCCESS: "success",
                  FAILURE: "failure", CRITICAL_FAILURE: "critical failure"}

FOOL, WHEEL, DEATH, DEVIL, TOWER, SUN, WORLD = 0, 10, 13, 15, 16, 19, 21
# "A Fool is always a Critical Success", "The World ...", "The Sun ..."
SUCCESS_TRUMPS = {FOOL: "fool", WORLD: "world", SUN: "sun"}
# "A Tower is always a Critical Failure", "The Devil ...", "Death ..."
FAILURE_TRUMPS = {TOWER: "tower", DEVIL: "devil", DEATH: "death"}
CS_TRIGGERS = ("fool", "own_major", "world", "sun")
CF_TRIGGERS = ("tower", "devil", "death")

# "Easy: Fails on any Minor Arcana <= 5", "Medium: ... <= 9", "Hard: Fails on any Minor Arcana"
FAILS_AT_OR_BELOW = {"easy": 5, "medium": 9, "hard": 14}
NEEDED = {"easy": "a 6 or better", "medium": "a 10 or better", "hard": "a Major Arcana"}


def rank_of(value: object) -> str:
    rank = str(value or "").strip().lower()
    if rank not in RANKS:
        raise BadInput(f"{str(value)[:20]!r} is not a difficulty: choose one of "
                       f"{', '.join(RANK_LABELS.values())}.")
    return rank


def easier(rank: str) -> str:
    """One rank easier; Automatic stays Automatic.

    Seed: "it becomes one step easier: an Unlikely check becomes merely Hard, a Hard check
    becomes Medium"."""
    return RANKS[max(0, RANKS.index(rank) - 1)]


def card_of(token: str) -> OrientedCard:
    """The Tarot card a token names; ``BadInput`` for anything else."""
    try:
        card = OrientedCard.from_token(str(token))
    except KeyError:
        raise BadInput(f"{str(token)[:30]!r} is not a card.") from None
    if card.card.deck != "tarot":
        raise BadInput(f"{card.card.name} is not a Tarot card: Report Card draws from a Tarot deck.")
    return card


def major_id(number: int) -> str:
    """The card id of Major Arcana ``number``."""
    return f"tarot:major:{number}"


def trigger(card: Card, own_major: int | None) -> str | None:
    """Which special rule the card sets off, if any.

    Seed: "The Critical Success conditions fire before the Critical Failure conditions", so a
    character's own Major Arcana is a Critical Success even when it is the Tower or the
    Wheel. The Fool is named before one's own card, so an own Fool still counts as the Fool
    (its luck is the seed's "Happenstance")."""
    if card.arcana != "major":
        return None
    number = card.value
    if number == FOOL:
        return "fool"
    if number == own_major:
        return "own_major"
    if number in SUCCESS_TRUMPS:
        return SUCCESS_TRUMPS[number]
    if number == WHEEL:
        return "wheel"
    return FAILURE_TRUMPS.get(number)


def card_class(token: str, own_major: int | None) -> int | str:
    card = card_of(token).card
    if card.arcana == "minor":
        return card.value
    found = trigger(card, own_major)
    if found in CS_TRIGGERS:
        return "cs"
    if found in CF_TRIGGERS:
        return "cf"
    return "wheel" if found == "wheel" else "major"


def wheel_result(second: int | str) -> str:
    """Seed, "The Wheel of Fortune": "Draw a second card: If the card is an Ace through a Nine:
    Critical Failure. If the card is a 10, Page, Knight, Queen, King, or Major Arcana:
    Critical Success" (any Major: the second card is read by this rule alone)."""
    return CRITICAL_FAILURE if isinstance(second, int) and second <= 9 else CRITICAL_SUCCESS


def critical_of(cls: int | str, second: int | str | None = None) -> str | None:
    """The critical a card class sets off before the rank has its say."""
    if cls == "cs":
        return CRITICAL_SUCCESS
    if cls == "cf":
        return CRITICAL_FAILURE
    if cls == "wheel":
        if second is None:
            raise ValueError("the Wheel of Fortune needs its second card")
        return wheel_result(second)
    return None


def outcome_of(rank: str, cls: int | str, second: int | str | None = None) -> str:
    """The outcome of one card (and a Wheel's second card) at ``rank``: the seed's table.

    - "Automatic: The player can not fail this check." (a Critical Success is still one)
    - "Trivial: Only fails on a Critical Failure."
    - "Easy: Fails on any Minor Arcana <= 5, otherwise succeeds."
    - "Medium: Fails on any Minor Arcana <= 9, otherwise succeeds."
    - "Hard: Fails on any Minor Arcana, otherwise succeeds."
    - "Unlikely: Success on a Critical Success, otherwise fails" and "On an Unlikely check, a
      Critical Success is just a success".
    - "Impossible: The player can not succeed at this check." (a Critical Failure still is one)
    """
    critical = critical_of(cls, second)
    if rank == "automatic":
        return CRITICAL_SUCCESS if critical == CRITICAL_SUCCESS else SUCCESS
    if rank == "impossible":
        return CRITICAL_FAILURE if critical == CRITICAL_FAILURE else FAILURE
    if rank == "unlikely":
        return {CRITICAL_SUCCESS: SUCCESS, CRITICAL_FAILURE: CRITICAL_FAILURE}.get(critical or "", FAILURE)
    if critical is not None:
        return critical
    if rank == "trivial" or not isinstance(cls, int):
        return SUCCESS
    return FAILURE if cls <= FAILS_AT_OR_BELOW[rank] else SUCCESS


def succeeded(outcome: str | None) -> bool:
    return outcome in (CRITICAL_SUCCESS, SUCCESS)


def height(card: Card) -> int:
    """How high a card stands: Ace 1 .. King 14, then the Major Arcana above every Minor in
    their order (seed: "a Magician ... is a closer success than ... a Judgement (20)")."""
    return card.value if card.arcana == "minor" else 14 + card.value


def closeness(rank: str, card: Card, outcome: str) -> dict[str, Any] | None:
    """How near the check came, where the seed's reading applies: a plain success or failure
    at Easy, Medium or Hard (the ranks where the card's height decides).

    Seed: "If the player needed a face card or Major Arcana to succeed, and they drew a 9, or
    a 10, that's a closer failure than if they had drawn a 1 or a 2. If they needed to draw a
    Major Arcana and they draw a Magician (2), that's a closer success than if they had drawn
    a Judgement (20)." ``margin`` counts steps of height from the line (1 is the nearest);
    ``near`` is a margin of 1 or 2, which a GM may play as "narrowly"."""
    if rank not in FAILS_AT_OR_BELOW or outcome not in (SUCCESS, FAILURE):
        return None
    line = FAILS_AT_OR_BELOW[rank] + 1  # the lowest height that succeeds
    mine = height(card)
    margin = mine - line + 1 if outcome == SUCCESS else line - mine
    near = margin <= 2
    needed = NEEDED[rank]
    if outcome == SUCCESS:
        text = f"a narrow success: it needed {needed}" if near else f"a clear success: it needed {needed}"
    else:
        text = f"a near miss: it needed {needed}" if near else f"not close: it needed {needed}"
    return {"needed": needed, "margin": margin, "near": near, "text": text}


def edge_of(bonus: bool, penalty: bool) -> str | None:
    """Seed: "Bonus and Penalty cancel one another out, and do not stack."."""
    if bool(bonus) == bool(penalty):
        return None
    return "bonus" if bonus else "penalty"
