"""Checkable shuffles: commit to a pile's order now, reveal it later.

When a pile is shuffled the server publishes ``digest`` and keeps the order and ``salt``
secret; once revealing the order can show nobody a card hidden from them (see
:func:`reveal_is_safe`) it reveals both, and anyone can recompute the digest and see that
the cards dealt in between came off the top of that order. The salt, fresh and unpredictable per shuffle, stops anyone from guessing the order
of a small pile by hashing every permutation.

Canonical encoding (what ``static/js/verify.js`` recomputes with WebCrypto)::

    message = salt + "\\n" + "\\n".join(order)      # a Unicode string
    digest  = lowercase hex of SHA-256(UTF-8 bytes of message)

- ``salt`` is lowercase hexadecimal, an even number of digits, at least 32 of them
  (128 bits); :func:`commit` makes 64 (256 bits) with :func:`secrets.token_hex`.
- ``order`` lists the pile from the top (the next card dealt) to the bottom. Each entry is a
  non-empty string without a newline: a card's order token (its id such as
  ``tarot:major:16``, plus ``/r`` when the card lies reversed, see ``games.core.cards``).
- No trailing newline; an empty pile encodes as ``salt + "\\n"``.

Example: salt ``"00" * 16`` and order ``["std:S:1", "std:H:12"]`` hash the 49 bytes
``000...000\\nstd:S:1\\nstd:H:12`` to
``006cacd105ffdc96e5a2939c29f9c0cc42c667cb7c2641da386e20fd64e7dca4``.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import NamedTuple

from games.core.rng import Rng

SALT_BYTES = 32
_SALT = re.compile(r"(?:[0-9a-f]{2}){16,}")
_DIGEST = re.compile(r"[0-9a-f]{64}")


class Commitment(NamedTuple):
    """What :func:`commit` returns: publish ``digest`` now, reveal ``salt`` later."""

    digest: str
    salt: str


def canonical_bytes(order: Sequence[str], salt: str) -> bytes:
    """The exact bytes that are hashed (see the module docstring).

    Raises ``ValueError`` for a malformed salt or entry, so that two different orders can
    never encode to the same bytes.
    """
    if not _SALT.fullmatch(salt):
        raise ValueError("salt must be lowercase hex, an even number of digits, 32 or more")
    for entry in order:
        if not isinstance(entry, str) or not entry or "\n" in entry:
            raise ValueError(f"order entry {entry!r} must be a non-empty string with no newline")
    return (salt + "\n" + "\n".join(order)).encode("utf-8")


def digest_of(order: Sequence[str], salt: str) -> str:
    """Lowercase hex SHA-256 of :func:`canonical_bytes`."""
    return hashlib.sha256(canonical_bytes(order, salt)).hexdigest()


def new_salt(rng: Rng | None = None) -> str:
    """A fresh 256-bit salt: from :func:`secrets.token_hex`, or from ``rng`` when given
    (tests and replays pass a seeded one; never pass a seeded one in production)."""
    if rng is None:
        return secrets.token_hex(SALT_BYTES)
    return f"{rng.randrange(0, 1 << (8 * SALT_BYTES)):0{2 * SALT_BYTES}x}"


def commit(order: Sequence[str], rng_or_salt: Rng | str | None = None) -> Commitment:
    """Commit to ``order``: returns ``(digest_hex, salt_hex)``.

    ``rng_or_salt`` is ``None`` in production (the salt comes from :mod:`secrets`), a salt
    string to use as it is, or an :class:`Rng` to draw the salt from.
    """
    salt = rng_or_salt if isinstance(rng_or_salt, str) else new_salt(rng_or_salt)
    return Commitment(digest_of(order, salt), salt)


def verify(order: Sequence[str], salt: str, digest: str) -> bool:
    """Whether the revealed ``order`` and ``salt`` hash to the published ``digest``.

    Malformed input is simply not a match: this answers a question, it never raises.
    """
    if not _DIGEST.fullmatch(digest.lower()):
        return False
    try:
        recomputed = digest_of(order, salt)
    except ValueError:
        return False
    return hmac.compare_digest(recomputed, digest.lower())


def first_inconsistency(order: Sequence[str], dealt: Sequence[str]) -> int | None:
    """The index of the first dealt entry that is not the revealed order's entry at that
    position (dealing takes from the top, so ``dealt`` must be a prefix of ``order``), or
    ``None`` when every dealt entry matches. Dealing more cards than the order holds
    makes the first surplus index inconsistent."""
    for index, entry in enumerate(dealt):
        if index >= len(order) or order[index] != entry:
            return index
    return None


def is_prefix_consistent(order: Sequence[str], dealt: Sequence[str]) -> bool:
    """Whether ``dealt``, in the order dealt, is exactly the top of the revealed ``order``."""
    return first_inconsistency(order, dealt) is None


class Lie(StrEnum):
    """Where a card of a deck lies now, as far as revealing an order of that deck goes."""

    FACE_UP = "face up"  # in the play area or on the discard pile: everyone sees it
    # Face down in the draw pile, and shuffled since it came there or was looked at: nobody
    # knows or can work out where in the pile it is.
    SHUFFLED = "shuffled"
    # Face down in the draw pile at a place someone knows or can work out: put back on the top
    # or the bottom in plain sight, or looked at or rearranged by the GM, since the last shuffle.
    PINNED = "pinned"
    HAND = "hand"  # in a hand: its owner and the GM see it, nobody else


SAFE_LIES = frozenset({Lie.FACE_UP, Lie.SHUFFLED})


def reveal_is_safe(
    order: Sequence[str], dealt: int, *, scrambled: bool, lies: Mapping[str, Lie], held_unseen: bool = False,
) -> bool:
    """Whether a sealed ``order`` (tokens, top first; ``dealt`` of them dealt off its top)
    may be revealed now, given where every card of its deck lies (``lies``: card id to
    :class:`Lie`, one entry per card of the deck). ``scrambled`` says that the draw pile
    was shuffled since the order stopped being dealt from (or that nothing of it is left).

    The rule: an order is revealed only when it can show nobody a card hidden from them now,
    wherever that card is. A revealed order tells

    - where each card dealt under it went: the draw and deal events say which positions went
      to whom, and the public moves since (plays, passes, returns to the top or the bottom)
      follow each of those cards to where it lies now;
    - how its undealt rest lies in the draw pile, unless that was shuffled since;
    - by what it leaves out, which cards were out of the pile (in hands, or face up) when it
      was sealed, and with the public moves since, where they may be now.

    So it is revealed only when its undealt rest is shuffled away (``scrambled``), and every
    card it names, dealt or not, and every card it leaves out is face up or lies shuffled in
    the draw pile: none is in a hand, and none lies face down where someone knows or could
    work out it lies (a card put back on the top or the bottom, or one the GM looked at or
    rearranged, until the next shuffle). Every card of the deck is either named or left out,
    so an order waits while any card of its deck is held or pinned. That is more than some
    orders need, and deliberate: the test reads only what everyone knows (how many cards
    each hand holds, the announced returns, looks and shuffles), so the moment a reveal
    comes says nothing either, which a test on which cards are where would (revealing once
    no hand holds a card the order dealt or left out tells that the hands hold other cards).
    A held-back order is revealed at the first play, discard or shuffle that finds the deck
    so; a recall gathers every card and shuffles, so it reveals every closed order.

    And it tells who was dealt which card: so an order that dealt a card face down into a
    hand stays sealed until every such card has been seen face up by everyone (played or
    discarded); ``held_unseen`` says one has not. A hand's cards that were never played stay
    its holder's secret, even after they were gathered back and shuffled (issue 16: "only the
    GM and the particular player will see their own card draws"). Such an order is never
    checked by everyone; the cards seen face up are still each covered by a later seal.
    """
    if held_unseen:
        return False
    if dealt < len(order) and not scrambled:
        return False
    named = {token.split("/")[0] for token in order}
    left_out = set(lies) - named
    return all(lies.get(card) in SAFE_LIES for card in named | left_out)
