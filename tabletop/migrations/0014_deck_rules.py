"""Deck.rules: the decks a table's system draws from are the rules' (issue 21). Existing decks
are marked as the registry says today: by the names a system declares (GameSystem.rule_decks)
and the decks it gives each character (GameSystem.character_decks)."""

from django.db import migrations, models


def mark_rule_decks(apps, schema_editor):
    from games import registry
    from games.contract import Character as Facts

    Deck = apps.get_model("tabletop", "Deck")
    Character = apps.get_model("tabletop", "Character")
    for deck in Deck.objects.select_related("table"):
        game = registry.SYSTEMS.get(deck.table.system)
        if game is None:
            continue
        names = set(game.rule_decks)
        for c in Character.objects.filter(table_id=deck.table_id):
            facts = Facts(id=c.pk, cid=f"c{c.pk}", name=c.name, sheet=c.sheet, owner=c.owner_id, is_npc=c.is_npc)
            names |= {spec.name for spec in game.character_decks(facts) if spec.rules}
        if deck.name in names:
            deck.rules = True
            deck.save(update_fields=["rules"])


class Migration(migrations.Migration):

    dependencies = [
        ('tabletop', '0013_npc_sheets_secret'),
    ]

    operations = [
        migrations.AddField(
            model_name='deck',
            name='rules',
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(mark_rule_decks, migrations.RunPython.noop),
    ]
