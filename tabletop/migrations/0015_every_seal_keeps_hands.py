"""Since 0015 every seal, whatever made it, keeps closed while a card it could give away is unseen
(services/piles.py, held_secrets): a seal made by a return, a rearrangement or a shuffle while
hands held cards names a card put back face down, or leaves out exactly the cards in hands.

A seal made before did not record which cards those were. Here every such seal still unrevealed
counts as unseen each card of its deck that does not lie face up now: the cards that were in
hands or put back face down are among them. It keeps that old seal closed until those cards are
seen face up, which may be never: the safe side, as 0012 chose, for seals made before the fix."""

from __future__ import annotations

from django.db import migrations


def count_unseen(apps, schema_editor) -> None:
    ShuffleCommitment = apps.get_model("tabletop", "ShuffleCommitment")
    CardPlacement = apps.get_model("tabletop", "CardPlacement")
    for record in ShuffleCommitment.objects.filter(revealed_seq__isnull=True).order_by("pk"):
        hidden = CardPlacement.objects.filter(deck_id=record.deck_id).exclude(pile__kind__in=("play", "discard"))
        record.unseen = sorted(set(record.unseen) | set(hidden.values_list("card_id", flat=True)))
        record.save(update_fields=["unseen"])


class Migration(migrations.Migration):

    dependencies = [
        ("tabletop", "0014_deck_rules"),
    ]

    operations = [
        migrations.RunPython(count_unseen, migrations.RunPython.noop),
    ]
