"""Shuffle commitments: the canonical encoding, round trips, tampering, dealt prefixes,
agreement with the browser's ``static/js/verify.js``, and when an order may be revealed."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.core import cards
from games.core.commitment import (
    Lie,
    canonical_bytes,
    commit,
    digest_of,
    first_inconsistency,
    is_prefix_consistent,
    new_salt,
    reveal_is_safe,
    verify,
)

VERIFY_JS = Path(__file__).resolve().parents[3] / "static" / "js" / "verify.js"
SALT = "0123456789abcdef" * 2
ORDER = [o.token for o in cards.orient(cards.shuffled(cards.tarot(), random.Random(5)),
                                       random.Random(6))]


def test_canonical_bytes_are_salt_newline_ids_joined_by_newline() -> None:
    assert canonical_bytes(["std:S:1", "std:H:12"], "00" * 16) == (
        b"00000000000000000000000000000000\nstd:S:1\nstd:H:12"
    )
    assert canonical_bytes([], SALT) == SALT.encode() + b"\n"


def test_documented_example_digest() -> None:
    """The example in the commitment module's docstring, pinned so the encoding never drifts."""
    assert digest_of(["std:S:1", "std:H:12"], "00" * 16) == (
        "006cacd105ffdc96e5a2939c29f9c0cc42c667cb7c2641da386e20fd64e7dca4"
    )


def test_commit_then_verify_round_trips() -> None:
    digest, salt = commit(ORDER, SALT)
    assert salt == SALT
    assert verify(ORDER, salt, digest)
    assert verify(ORDER, salt, digest.upper())


def test_production_salt_is_fresh_256_bits_from_secrets() -> None:
    first, second = commit(ORDER), commit(ORDER)
    assert len(first.salt) == 64 and int(first.salt, 16) >= 0
    assert first.salt != second.salt and first.digest != second.digest
    assert verify(ORDER, first.salt, first.digest)
    assert verify(ORDER, second.salt, second.digest)


def test_salt_from_a_seeded_rng_is_reproducible() -> None:
    assert commit(ORDER, random.Random(9)) == commit(ORDER, random.Random(9))
    assert len(new_salt(random.Random(9))) == 64


def test_changing_one_card_fails() -> None:
    digest, salt = commit(ORDER, SALT)
    tampered = list(ORDER)
    tampered[10] = "tarot:cups:1" if tampered[10] != "tarot:cups:1" else "tarot:cups:2"
    assert not verify(tampered, salt, digest)


def test_swapping_two_cards_or_dropping_or_adding_one_fails() -> None:
    digest, salt = commit(ORDER, SALT)
    swapped = list(ORDER)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    assert not verify(swapped, salt, digest)
    assert not verify(ORDER[:-1], salt, digest)
    assert not verify(ORDER + ["std:joker:1"], salt, digest)


def test_turning_a_card_over_fails() -> None:
    upright = [t.removesuffix("/r") for t in ORDER]
    assert upright != ORDER, "the fixture should hold a reversed card"
    digest, salt = commit(ORDER, SALT)
    assert not verify(upright, salt, digest)


def test_changing_the_salt_or_the_digest_fails() -> None:
    digest, salt = commit(ORDER, SALT)
    other_salt = ("1" if salt[0] != "1" else "2") + salt[1:]
    assert not verify(ORDER, other_salt, digest)
    other_digest = digest[:-1] + ("1" if digest[-1] != "1" else "2")
    assert not verify(ORDER, salt, other_digest)


@pytest.mark.parametrize("bad_salt", ["", "00" * 15, "0" * 33, "AB" * 16, "zz" * 16, " " + SALT])
def test_malformed_salt_is_refused_by_commit_and_fails_verify(bad_salt: str) -> None:
    with pytest.raises(ValueError):
        commit(ORDER, bad_salt)
    assert not verify(ORDER, bad_salt, "0" * 64)


def test_malformed_digest_fails_verify() -> None:
    assert not verify(ORDER, SALT, "")
    assert not verify(ORDER, SALT, digest_of(ORDER, SALT)[:-1])


@pytest.mark.parametrize("bad_entry", ["", "a\nb"])
def test_entries_must_be_non_empty_and_newline_free(bad_entry: str) -> None:
    """Otherwise ["a\\nb"] and ["a", "b"] would encode to the same bytes."""
    with pytest.raises(ValueError):
        commit(["std:S:1", bad_entry], SALT)
    assert not verify([bad_entry], SALT, "0" * 64)


def test_dealt_cards_must_be_the_top_of_the_revealed_order() -> None:
    assert is_prefix_consistent(ORDER, [])
    assert is_prefix_consistent(ORDER, ORDER[:7])
    assert is_prefix_consistent(ORDER, ORDER)
    assert first_inconsistency(ORDER, ORDER[:3] + [ORDER[4]]) == 3
    assert first_inconsistency(ORDER, ORDER[1:4]) == 0
    assert first_inconsistency(ORDER, ORDER + [ORDER[0]]) == len(ORDER)
    assert not is_prefix_consistent(ORDER, [ORDER[1]])


TOKENS = st.sampled_from([o.token for o in cards.orient(cards.tarot(), random.Random(1))])


@given(st.lists(TOKENS, max_size=60), st.binary(min_size=16, max_size=40), st.data())
def test_any_order_round_trips_and_its_dealt_prefixes_are_consistent(
    order: list[str], salt_bytes: bytes, data: st.DataObject
) -> None:
    digest, salt = commit(order, salt_bytes.hex())
    assert verify(order, salt, digest)
    dealt = data.draw(st.integers(0, len(order)))
    assert is_prefix_consistent(order, order[:dealt])


def test_browser_verify_js_computes_the_same_digest() -> None:
    cases = [
        (["std:S:1", "std:H:12"], "00" * 16),
        ([], SALT),
        (ORDER, commit(ORDER).salt),
        (["tarot:major:16/r", "std:joker:1", "ünï:cödé"], SALT * 2),
    ]
    script = (
        "globalThis.window = globalThis; require(process.argv[1]);"
        "const cases = JSON.parse(process.argv[2]);"
        "Promise.all(cases.map(([o, s]) => window.tabletopVerify(o, s)))"
        ".then((d) => console.log(JSON.stringify(d)));"
    )
    run = subprocess.run(
        ["node", "-e", script, str(VERIFY_JS), json.dumps(cases)],
        capture_output=True, text=True, timeout=30, check=True,
    )
    assert json.loads(run.stdout) == [digest_of(order, salt) for order, salt in cases]


def test_browser_verify_js_refuses_a_malformed_salt() -> None:
    script = (
        "globalThis.window = globalThis; require(process.argv[1]);"
        "window.tabletopVerify(['std:S:1'], 'AB'.repeat(16))"
        ".then(() => console.log('accepted'), () => console.log('refused'));"
    )
    run = subprocess.run(["node", "-e", script, str(VERIFY_JS)], capture_output=True,
                         text=True, timeout=30, check=True)
    assert run.stdout.strip() == "refused"


# When an order may be revealed

DECK = ["std:S:1", "std:S:2", "std:S:3", "std:S:4"]


def lies_of(**overrides: Lie) -> dict[str, Lie]:
    """Every card of DECK face up, but those named (S1 for std:S:1, ...)."""
    lies = {card: Lie.FACE_UP for card in DECK}
    lies.update({f"std:S:{name[1:]}": lie for name, lie in overrides.items()})
    return lies


def test_an_order_is_revealed_once_every_card_is_face_up_or_shuffled_in_the_draw_pile() -> None:
    order = ["std:S:1", "std:S:2/r", "std:S:3"]  # std:S:4 was out of the pile
    assert reveal_is_safe(order, 2, scrambled=True, lies=lies_of())
    assert reveal_is_safe(order, 2, scrambled=True, lies=lies_of(S2=Lie.SHUFFLED, S3=Lie.SHUFFLED, S4=Lie.SHUFFLED))


def test_an_order_whose_undealt_rest_still_lies_in_the_pile_waits() -> None:
    order = ["std:S:1", "std:S:2", "std:S:3", "std:S:4"]
    assert not reveal_is_safe(order, 2, scrambled=False, lies=lies_of(S3=Lie.SHUFFLED, S4=Lie.SHUFFLED))
    assert reveal_is_safe(order, 4, scrambled=False, lies=lies_of()), "nothing of it is left in the pile"


@pytest.mark.parametrize("card", ["S1", "S3", "S4"], ids=["dealt", "undealt", "left out"])
@pytest.mark.parametrize("lie", [Lie.HAND, Lie.PINNED])
def test_an_order_waits_while_any_card_of_its_deck_is_held_or_pinned(card: str, lie: Lie) -> None:
    """Dealt under the order, undealt in it, or left out of it: an order tells something of
    each, so none may be hidden where someone could place it."""
    order = ["std:S:1", "std:S:2", "std:S:3"]
    assert not reveal_is_safe(order, 2, scrambled=True, lies=lies_of(**{card: lie}))


def test_a_card_the_order_names_but_nobody_placed_is_not_safe() -> None:
    lies = lies_of()
    del lies["std:S:3"]
    assert not reveal_is_safe(["std:S:1", "std:S:3"], 1, scrambled=True, lies=lies)


@given(st.lists(st.sampled_from(list(Lie)), min_size=4, max_size=4), st.integers(0, 4), st.booleans(),
       st.integers(0, 4))
def test_safe_exactly_when_the_rest_is_scrambled_and_nothing_is_held_or_pinned(
    where: list[Lie], dealt: int, scrambled: bool, size: int
) -> None:
    lies = dict(zip(DECK, where, strict=True))
    order = DECK[:size]
    dealt = min(dealt, size)
    expected = (scrambled or dealt == size) and all(lie in (Lie.FACE_UP, Lie.SHUFFLED) for lie in where)
    assert reveal_is_safe(order, dealt, scrambled=scrambled, lies=lies) == expected
