"""Who may do what with a deck (issue 11, finding 2): a player who may use a deck draws,
shuffles, plays, discards, passes and returns; dealing to others, recalling every hand and
shuffling the discards back are the GM's, or a player's the GM made the deck's dealer."""

from __future__ import annotations

import pytest

from tabletop import services
from tabletop.models import CardPlacement, Deck, Event, PileKind

pytestmark = pytest.mark.django_db


def state(table) -> tuple:
    table.row.refresh_from_db()
    return (
        table.row.next_seq,
        list(CardPlacement.objects.order_by("pk").values_list("pk", "pile_id", "position", "reversed")),
        list(Deck.objects.order_by("pk").values_list("pk", "dealer_id", "players_may_use", "allow_reversed")),
    )


def hand_size(member) -> int:
    return CardPlacement.objects.filter(pile__kind=PileKind.HAND, pile__owner=member).count()


def post(table, member, action: str, **data) -> int:
    client = table.client(member)
    return client.post(f"/tables/{table.row.pk}/decks/{action}/", data, HTTP_HX_REQUEST="true").status_code


@pytest.fixture
def open_deck(table, rng) -> Deck:
    deck = services.deck_create(table=table.row, actor=table.gm, kind="standard", rng=rng,
                                players_may_use=True)
    services.pile_deal(deck=deck, actor=table.gm, count=2, to=[table.ann, table.bob])
    return deck


@pytest.mark.parametrize(
    ("action", "data"),
    [
        ("deal", {"count": "1", "to": "bob"}),
        ("recall", {}),
        ("reshuffle_discard", {}),
    ],
)
def test_a_player_may_not_deal_recall_or_reshuffle_an_open_deck(table, open_deck, action, data) -> None:
    """The scan: "a player can deal (POST …/decks/deal/ with an open deck answers 200 and puts
    cards in hands)" and "can Recall all on an open deck and take every other player's hand"."""
    if data.get("to") == "bob":
        data = {**data, "to": str(table.bob.pk)}
    before = state(table)
    assert post(table, table.ann, action, deck=str(open_deck.pk), **data) == 403
    assert state(table) == before
    assert hand_size(table.bob) == 2


def test_a_player_on_an_open_deck_still_draws_and_shuffles(table, open_deck) -> None:
    assert post(table, table.ann, "draw", deck=str(open_deck.pk), count="1") == 200
    assert hand_size(table.ann) == 3
    assert post(table, table.ann, "shuffle", deck=str(open_deck.pk)) == 200


def test_the_gm_makes_a_player_the_dealer_who_then_deals_and_recalls(table, open_deck) -> None:
    deck = str(open_deck.pk)
    assert post(table, table.gm, "configure", deck=deck, players_may_use="1", dealer_name="ann") == 200
    open_deck.refresh_from_db()
    assert open_deck.dealer_id == table.ann.pk
    assert "Ann deals it" in Event.objects.filter(kind="deck.configured").last().summary
    assert post(table, table.ann, "deal", deck=deck, count="1", to=str(table.bob.pk)) == 200
    assert hand_size(table.bob) == 3
    assert post(table, table.bob, "recall", deck=deck) == 403  # Bob is no dealer
    assert hand_size(table.bob) == 3
    assert post(table, table.ann, "recall", deck=deck) == 200
    assert hand_size(table.bob) == hand_size(table.ann) == 0
    # and the GM takes the role back
    assert post(table, table.gm, "configure", deck=deck, players_may_use="1", dealer_name="") == 200
    assert post(table, table.ann, "recall", deck=deck) == 403


@pytest.mark.parametrize("who", ["watcher", "gm", "nobody"])
def test_only_a_seated_player_can_be_made_dealer(table, open_deck, who) -> None:
    name = {"watcher": table.watcher.display_name, "gm": table.gm.display_name, "nobody": "Zed"}[who]
    before = state(table)
    assert post(table, table.gm, "configure", deck=str(open_deck.pk), dealer_name=name) == 400
    assert state(table) == before


def test_a_player_may_not_make_themself_dealer(table, open_deck) -> None:
    before = state(table)
    assert post(table, table.ann, "configure", deck=str(open_deck.pk), dealer_name="Ann") == 403
    assert state(table) == before


def test_the_page_shows_dealer_tools_to_the_dealer_and_the_gm(table, open_deck) -> None:
    services.deck_configure(deck=open_deck, actor=table.gm, allow_reversed=False, players_may_use=True,
                            dealer=table.ann)
    tools = f'class="dealer-tools" data-dealers="{table.ann.pk}"'
    pages = {who: table.client(who).get(f"/tables/{table.row.pk}/").content.decode()
             for who in (table.gm, table.ann, table.bob, table.watcher)}
    assert tools in pages[table.gm] and tools in pages[table.ann]
    # issue 21: what a seat may not use is not in its bytes (the page's CSS hid them from Bob)
    assert tools not in pages[table.bob] and tools not in pages[table.watcher]
