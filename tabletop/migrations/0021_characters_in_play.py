"""Marks as in play every character a rule move of its table's system has already named: its
combatant id (``c<pk>``) stands as a value in a system event's public or private part."""

import json

from django.db import migrations


def mark_in_play(apps, schema_editor):
    Character = apps.get_model("tabletop", "Character")
    Event = apps.get_model("tabletop", "Event")
    for character in Character.objects.select_related("table").iterator():
        needle = json.dumps(f"c{character.pk}")
        prefix = f"{character.table.system}."
        for payload, private in Event.objects.filter(
            table_id=character.table_id, kind__startswith=prefix,
        ).values_list("payload", "private").iterator():
            if needle in json.dumps(payload) or needle in json.dumps(private):
                Character.objects.filter(pk=character.pk).update(in_play=True)
                break


class Migration(migrations.Migration):

    dependencies = [
        ('tabletop', '0020_sheets_in_play'),
    ]

    operations = [
        migrations.RunPython(mark_in_play, migrations.RunPython.noop),
    ]
