"""Every procedure state folded again from its table's log by the one engine (issue 24): a state
kept before it held what the engines kept then (undo snapshots in Demon City's and Passages'
states, copies of sheets in Report Card's), which the engines now fold differently. The log is
the truth and stays as it was; each state becomes what the log folds to today. A state the
log cannot rebuild (an event of a shape no fold reads any more) starts afresh, the procedure
under way ended, and its log kept whole."""

from django.db import migrations


def fold_again(apps, schema_editor):
    from games import registry
    from games.contract import Seat

    ProcedureState = apps.get_model("tabletop", "ProcedureState")
    Event = apps.get_model("tabletop", "Event")
    for row in ProcedureState.objects.select_related("table"):
        game = registry.SYSTEMS.get(row.table.system)
        if game is None or game.engine is None:
            continue
        kinds = [f"{game.key}.{kind}" for kind in game.engine.events]
        rows = Event.objects.filter(table_id=row.table_id, kind__in=kinds).order_by("seq")
        log = [{k: v for k, v in {**payload.get("event", {}), **(private or {})}.items() if k != "working"}
               for payload, private in rows.values_list("payload", "private")]
        try:
            state = game.engine.fold(log)
            if game.panel is not None:
                game.panel.view(state, Seat(role="gm"))
        except Exception:  # noqa: BLE001 -- an old shape no fold reads: the state starts afresh
            state = game.engine.new_state()
        row.state = state
        row.save(update_fields=["state"])


class Migration(migrations.Migration):

    dependencies = [
        ('tabletop', '0016_scenes'),
    ]

    operations = [
        migrations.RunPython(fold_again, migrations.RunPython.noop),
    ]
