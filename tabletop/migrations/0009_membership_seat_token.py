"""A personal seat link for every member (issue 13, bug 4): a guest who logged out, or who
plays on another device, takes their seat back through it. Existing members each get a token
of their own (a unique field cannot take one default for every row at once)."""

from django.db import migrations, models

import tabletop.models


def _fill(apps, schema_editor):
    Membership = apps.get_model("tabletop", "Membership")
    for member in Membership.objects.filter(seat_token=None).only("pk"):
        member.seat_token = tabletop.models.new_link_token()
        member.save(update_fields=["seat_token"])


class Migration(migrations.Migration):
    dependencies = [("tabletop", "0008_table")]

    operations = [
        migrations.AddField("membership", "seat_token", models.CharField(max_length=64, null=True)),
        migrations.RunPython(_fill, migrations.RunPython.noop),
        migrations.AlterField(
            "membership", "seat_token",
            models.CharField(default=tabletop.models.new_link_token, max_length=64, unique=True),
        ),
    ]
