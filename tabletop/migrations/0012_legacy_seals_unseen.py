"""Seals made before 0011 did not record which of their cards went face down into a hand.

0011 keeps a seal closed until every card it dealt face down into a hand has been seen face
up (``ShuffleCommitment.unseen``): revealing the order earlier would tell which cards a player
held and never played. A seal made before it has ``unseen`` empty, so its order could come
out after a recall. Here every such seal (not revealed, cards dealt) counts each card it dealt
that does not lie face up now as unseen: the cards that went into a hand are among them. Some
that never did (drawn face up, then put back) may be counted too, which only keeps that old
seal closed until they are seen face up: the safe side, for shuffles made before the fix.
"""

from __future__ import annotations

from django.db import migrations

REVERSED_SUFFIX = "/r"  # games/core/cards.py: a reversed card's token is its id and "/r"


def card_id(token: str) -> str:
    return token[: -len(REVERSED_SUFFIX)] if token.endswith(REVERSED_SUFFIX) else token


def count_unseen(apps, schema_editor) -> None:
    ShuffleCommitment = apps.get_model("tabletop", "ShuffleCommitment")
    CardPlacement = apps.get_model("tabletop", "CardPlacement")
    for record in ShuffleCommitment.objects.filter(revealed_seq__isnull=True, dealt__gt=0).order_by("pk"):
        if record.unseen:
            continue  # made since 0011: it knows its own
        face_up = set(CardPlacement.objects.filter(
            deck_id=record.deck_id, pile__kind__in=("play", "discard")).values_list("card_id", flat=True))
        dealt = [card_id(t) for t in record.order[: record.dealt]]
        record.unseen = [c for c in dict.fromkeys(dealt) if c not in face_up]
        record.save(update_fields=["unseen"])


class Migration(migrations.Migration):

    dependencies = [
        ("tabletop", "0011_shufflecommitment_unseen"),
    ]

    operations = [
        migrations.RunPython(count_unseen, migrations.RunPython.noop),
    ]
