"""Migrations that change what is logged keep every committed event, and number it as new
events are numbered."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tabletop", "0005_deck_dealer")]
AFTER = [("tabletop", "0006_viewer_positions")]


def test_viewer_positions_number_the_events_already_logged() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    User = old.get_model("auth", "User")
    Campaign = old.get_model("tabletop", "Campaign")
    Membership = old.get_model("tabletop", "Membership")
    Event = old.get_model("tabletop", "Event")
    gm_user = User.objects.create(username="old-gm")
    ann_user = User.objects.create(username="old-ann")
    campaign = Campaign.objects.create(name="Old", system="freeform", gm=gm_user, next_seq=9)
    gm = Membership.objects.create(campaign=campaign, user=gm_user, role="gm", display_name="Gail")
    ann = Membership.objects.create(campaign=campaign, user=ann_user, role="player", display_name="Ann")
    audiences = [("everyone", gm), ("owner", ann), ("gm", gm), ("owner", ann), ("everyone", ann),
                 ("owner", gm), ("everyone", gm), ("owner", ann)]
    for seq, (audience, owner) in enumerate(audiences, start=1):
        Event.objects.create(campaign=campaign, seq=seq, kind="chat.posted", actor=owner, owner=owner,
                             audience=audience, summary=f"line {seq}")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    rows = list(new.get_model("tabletop", "Event").objects.filter(campaign_id=campaign.pk)
                .order_by("seq").values_list("seq", "summary", "public_no", "own_no"))
    assert rows == [
        (1, "line 1", 1, 0), (2, "line 2", 1, 1), (3, "line 3", 1, 0), (4, "line 4", 1, 2),
        (5, "line 5", 2, 0), (6, "line 6", 2, 1), (7, "line 7", 3, 0), (8, "line 8", 3, 1),
    ]
    assert new.get_model("tabletop", "Campaign").objects.get(pk=campaign.pk).public_seq == 3
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())  # back to the latest for the next test


def test_the_campaign_becomes_the_table_with_every_row_kept() -> None:
    """0008: one word for one concept. The model called Campaign is renamed Table, and its
    foreign keys ``campaign`` become ``table``: nothing committed is lost on the way."""
    executor = MigrationExecutor(connection)
    executor.migrate([("tabletop", "0007_cardplacement_pinned")])
    old = executor.loader.project_state([("tabletop", "0007_cardplacement_pinned")]).apps
    gm_user = old.get_model("auth", "User").objects.create(username="old-gm-2")
    campaign = old.get_model("tabletop", "Campaign").objects.create(
        name="Kept", system="freeform", gm=gm_user, next_seq=2, public_seq=1)
    gm = old.get_model("tabletop", "Membership").objects.create(
        campaign=campaign, user=gm_user, role="gm", display_name="Gail")
    old.get_model("tabletop", "Event").objects.create(
        campaign=campaign, seq=1, kind="chat.posted", actor=gm, owner=gm, audience="everyone",
        summary="before the rename", public_no=1)
    old.get_model("tabletop", "Event").objects.create(
        campaign=campaign, seq=0, kind="campaign.created", actor=gm, owner=gm, audience="everyone",
        summary="Gail opened the table.", public_no=0)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([("tabletop", "0008_table")])
    new = executor.loader.project_state([("tabletop", "0008_table")]).apps
    table = new.get_model("tabletop", "Table").objects.get(pk=campaign.pk)
    assert (table.name, table.next_seq, table.public_seq) == ("Kept", 2, 1)
    assert list(new.get_model("tabletop", "Membership").objects.filter(table=table)
                .values_list("display_name", flat=True)) == ["Gail"]
    assert list(new.get_model("tabletop", "Event").objects.filter(table=table)
                .order_by("seq").values_list("seq", "kind", "summary")) == [
        (0, "table.created", "Gail opened the table."), (1, "chat.posted", "before the rename")]
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_a_seal_made_before_0011_counts_its_cards_not_face_up_as_unseen() -> None:
    """0012: a seal from before 0011 did not record which of its cards went face down into a
    hand, so a recall could reveal its order and tell which cards a player held unplayed. Each
    card it dealt that does not lie face up now counts as unseen; a revealed seal, one that
    dealt nothing and one made since 0011 are left as they are."""
    before, after = [("tabletop", "0011_shufflecommitment_unseen")], [("tabletop", "0012_legacy_seals_unseen")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    gm_user = old.get_model("auth", "User").objects.create(username="old-gm-3")
    table = old.get_model("tabletop", "Table").objects.create(name="Sealed", system="freeform", gm=gm_user)
    deck = old.get_model("tabletop", "Deck").objects.create(table=table, name="Fate", kind="tarot")
    Pile, Card = old.get_model("tabletop", "Pile"), old.get_model("tabletop", "CardPlacement")
    draw = Pile.objects.create(table=table, kind="draw", deck=deck)
    play = Pile.objects.create(table=table, kind="play")
    # dealt under the old seal: the Fool went into a hand and was recalled (face down again),
    # the Magician (reversed) was played face up; the Empress was never dealt
    Card.objects.create(deck=deck, card_id="tarot:major:0", pile=draw, position=0)
    Card.objects.create(deck=deck, card_id="tarot:major:1", pile=play, position=0, reversed=True)
    Card.objects.create(deck=deck, card_id="tarot:major:3", pile=draw, position=1)
    order = ["tarot:major:0", "tarot:major:1/r", "tarot:major:3"]
    Seal = old.get_model("tabletop", "ShuffleCommitment")
    kw = {"deck": deck, "digest": "d" * 64, "salt": "s", "order": order, "committed_seq": 1, "closed": True}
    legacy = Seal.objects.create(**kw, dealt=2)
    revealed = Seal.objects.create(**kw, dealt=2, revealed_seq=5)
    untouched = Seal.objects.create(**kw, dealt=0)
    recent = Seal.objects.create(**kw, dealt=2, unseen=["tarot:major:1"])
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)
    new = executor.loader.project_state(after).apps.get_model("tabletop", "ShuffleCommitment")
    assert new.objects.get(pk=legacy.pk).unseen == ["tarot:major:0"]
    assert [new.objects.get(pk=s.pk).unseen for s in (revealed, untouched)] == [[], []]
    assert new.objects.get(pk=recent.pk).unseen == ["tarot:major:1"]
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_a_seal_made_before_0015_counts_every_card_not_face_up_as_unseen() -> None:
    """0015: a seal made by a return or a shuffle while hands held cards did not record which
    cards it could give away (a card put back face down on top, the cards left out in hands).
    Every unrevealed seal now counts each card of its deck not lying face up as unseen; a
    revealed one is left as it was."""
    before, after = [("tabletop", "0014_deck_rules")], [("tabletop", "0015_every_seal_keeps_hands")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    gm_user = old.get_model("auth", "User").objects.create(username="old-gm-4")
    table = old.get_model("tabletop", "Table").objects.create(name="Resealed", system="freeform", gm=gm_user)
    deck = old.get_model("tabletop", "Deck").objects.create(table=table, name="Fate", kind="tarot")
    Pile, Card = old.get_model("tabletop", "Pile"), old.get_model("tabletop", "CardPlacement")
    member = old.get_model("tabletop", "Membership").objects.create(table=table, user=gm_user, role="gm",
                                                                    display_name="gm")
    draw = Pile.objects.create(table=table, kind="draw", deck=deck)
    hand = Pile.objects.create(table=table, kind="hand", owner=member)
    play = Pile.objects.create(table=table, kind="play")
    Card.objects.create(deck=deck, card_id="tarot:major:0", pile=draw, position=0, pinned=True)  # put back
    Card.objects.create(deck=deck, card_id="tarot:major:1", pile=hand, position=0)  # held
    Card.objects.create(deck=deck, card_id="tarot:major:3", pile=play, position=0)  # face up
    Seal = old.get_model("tabletop", "ShuffleCommitment")
    kw = {"deck": deck, "digest": "d" * 64, "salt": "s", "order": ["tarot:major:0"], "committed_seq": 1}
    resealed = Seal.objects.create(**kw, closed=True)
    shown = Seal.objects.create(**kw, closed=True, revealed_seq=4)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)
    new = executor.loader.project_state(after).apps.get_model("tabletop", "ShuffleCommitment")
    assert new.objects.get(pk=resealed.pk).unseen == ["tarot:major:0", "tarot:major:1"]
    assert new.objects.get(pk=shown.pk).unseen == []
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_every_procedure_state_is_folded_again_from_its_log(rng) -> None:
    """Issue 24: states kept before the one engine held undo snapshots (Demon City, Passages) and
    sheet copies (Report Card); each becomes what its log folds to now, and a state whose log
    no fold reads starts afresh, the log kept whole."""
    import importlib

    from django.apps import apps
    from django.contrib.auth import get_user_model

    from games import registry
    from tabletop import services
    from tabletop.models import Event, ProcedureState, Role
    from tests.support.kit import fold

    migration = importlib.import_module("tabletop.migrations.0017_states_folded_again")
    users = get_user_model()
    fight = services.table_create(gm=users.objects.create_user("m-gm"), name="Old fight", system="demon_city")
    gm = fight.members.get(role=Role.GM)
    alfie = services.character_create(table=fight, actor=gm, name="Alfie", sheet={"agility": "2", "toughness": "3"})
    services.procedure_command(table=fight, actor=gm, command={"type": "start", "combatants": [f"c{alfie.pk}"]},
                               rng=rng)
    row = ProcedureState.objects.get(table=fight)
    row.state = {**row.state, "undo": [{"phase": "announce", "combatants": {}, "step": 0, "order": []}]}
    row.save()  # an old snapshot, as Demon City kept them
    odd = services.table_create(gm=users.objects.create_user("m-gm2"), name="Odd", system="passages")
    ProcedureState.objects.create(table=odd, state={"mode": "nonsense"})
    Event.objects.create(table=odd, seq=odd.next_seq, kind="passages.combat_started", actor=odd.members.get(),
                         audience="everyone", summary="An old line.", payload={"event": {"type": "combat_started"}})
    logged = Event.objects.count()
    migration.fold_again(apps, None)
    assert ProcedureState.objects.get(table=fight).state == fold(fight)
    assert ProcedureState.objects.get(table=fight).state["undo"][0]["step"] == 1
    assert ProcedureState.objects.get(table=odd).state == registry.get("passages").engine.new_state()
    assert Event.objects.count() == logged
