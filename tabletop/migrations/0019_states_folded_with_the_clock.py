"""Every procedure state folded again from its table's log (issue 35): the engines keep the
table's clock and lasting conditions in their states now (games/core/clock.py), under keys a
state kept before may hold for something else (Passages kept the Scene's General Conditions as
``conditions``). The log is the truth; each state becomes what the log folds to today, as
0017 did (its ``fold_again``: a state the log cannot rebuild starts afresh, its log kept)."""

from importlib import import_module

from django.db import migrations

fold_again = import_module("tabletop.migrations.0017_states_folded_again").fold_again


class Migration(migrations.Migration):

    dependencies = [
        ('tabletop', '0018_play_sessions'),
    ]

    operations = [
        migrations.RunPython(fold_again, migrations.RunPython.noop),
    ]
