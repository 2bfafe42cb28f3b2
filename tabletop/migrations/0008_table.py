"""One word for one concept: the model once called Campaign is the Table, as the URLs and
every screen already said. Renames only: no row changes (the
constraints that name the field are made again over the renamed column)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def _rename_kind(old: str, new: str):
    def run(apps, schema_editor):
        apps.get_model("tabletop", "Event").objects.filter(kind=old).update(kind=new)
    return run


class Migration(migrations.Migration):
    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("tabletop", "0007_cardplacement_pinned"),
    ]

    operations = [
        # the constraints and the index that name the field go first, and come back after it is renamed
        migrations.AlterModelOptions(
            name='event',
            options={'ordering': ['seq']},
        ),
        migrations.RemoveConstraint(
            model_name='event',
            name='one_event_per_seq',
        ),
        migrations.RemoveConstraint(
            model_name='membership',
            name='one_seat_per_user',
        ),
        migrations.RemoveConstraint(
            model_name='pile',
            name='one_hand_per_member',
        ),
        migrations.RemoveConstraint(
            model_name='pile',
            name='one_play_area_per_table',
        ),
        migrations.RemoveIndex(
            model_name='event',
            name='event_public_no',
        ),
        migrations.RenameModel("Campaign", "Table"),
        migrations.RenameField("membership", "campaign", "table"),
        migrations.RenameField("character", "campaign", "table"),
        migrations.RenameField("event", "campaign", "table"),
        migrations.RenameField("deck", "campaign", "table"),
        migrations.RenameField("pile", "campaign", "table"),
        migrations.RenameField("procedurestate", "campaign", "table"),
        migrations.AlterField(
            model_name='table',
            name='gm',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='tables_run', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddIndex(
            model_name='event',
            index=models.Index(fields=['table', 'public_no'], name='event_public_no'),
        ),
        migrations.AddConstraint(
            model_name='event',
            constraint=models.UniqueConstraint(fields=('table', 'seq'), name='one_event_per_seq'),
        ),
        migrations.AddConstraint(
            model_name='membership',
            constraint=models.UniqueConstraint(fields=('table', 'user'), name='one_seat_per_user'),
        ),
        migrations.AddConstraint(
            model_name='pile',
            constraint=models.UniqueConstraint(condition=models.Q(('kind', 'hand')), fields=('table', 'owner'), name='one_hand_per_member'),
        ),
        migrations.AddConstraint(
            model_name='pile',
            constraint=models.UniqueConstraint(condition=models.Q(('kind', 'play')), fields=('table',), name='one_play_area_per_table'),
        ),
        migrations.AlterModelOptions(name='event', options={'ordering': ['table', 'seq']}),
        # the first event of every table logged its creation under the old word; its line reads the same
        migrations.RunPython(_rename_kind("campaign.created", "table.created"),
                             _rename_kind("table.created", "campaign.created")),
    ]
