"""Issue 13: "`manage.py demo` makes a Demon City table with characters, NPCs, a deck, and a
short history in the log, so the first screen shows what the product does." Run twice, it
makes one table."""

from __future__ import annotations

import io
import re

from django.core.management import call_command
from django.test import Client

from tabletop.models import CardPlacement, Character, Event, Membership, PileKind, ProcedureState, Table


def run_demo() -> str:
    out = io.StringIO()
    call_command("demo", base_url="http://127.0.0.1:8000", stdout=out)
    return out.getvalue()


def test_the_demo_sets_a_demon_city_table_with_a_story_so_far(db: None) -> None:
    printed = run_demo()
    again = run_demo()
    assert Table.objects.count() == 1
    table = Table.objects.get()
    assert table.system == "demon_city"
    names = set(Character.objects.filter(table=table).values_list("name", flat=True))
    assert {"Sister Agnes", "Danny Cruz", "The Thing in the Chapel", "Orderly Kemp"} <= names
    assert Character.objects.filter(table=table, is_npc=True).count() == 2
    assert Character.objects.filter(table=table, is_npc=False, owner__isnull=False).count() == 2
    assert table.decks.count() == 1
    assert CardPlacement.objects.filter(deck__table=table, pile__kind=PileKind.HAND).count() == 2
    assert CardPlacement.objects.filter(deck__table=table, pile__kind=PileKind.PLAY).count() == 1
    kinds = list(Event.objects.filter(table=table).values_list("kind", flat=True))
    assert {"chat.posted", "dice.rolled", "card.played", "demon_city.action_rounds_started", "demon_city.announced"} <= set(kinds)
    state = ProcedureState.objects.get(table=table).state
    assert state["phase"] == "announce" and state["round"] == 1
    assert len(state["actions"]) == 1  # the Thing has announced; Sister Agnes is next
    for label in ("GM: demo-gm / ", "Player link: ", "Spectator link: ", "Table: ", "Mara's seat: ", "Theo's seat: "):
        assert label in printed and label in again
    # Mara's seat link opens her seat, with her turn waiting
    seat = re.search(r"Mara's seat: http://127\.0\.0\.1:8000(\S+)", printed).group(1)
    mara = Client()
    mara.post(seat)
    page = mara.get(f"/tables/{table.pk}/").content.decode()
    assert "You are <strong>Mara</strong>" in page and "Your turn:" in page and "Sister Agnes" in page
    assert Membership.objects.filter(table=table, display_name="The Host", role="gm").exists()


def test_a_demo_table_of_each_system_is_seated_with_its_samples(db: None) -> None:
    from django.core.management import call_command

    from games import registry
    from tabletop.models import Table

    for game in registry.SYSTEMS.values():
        out = io.StringIO()
        call_command("demo", base_url="http://127.0.0.1:8000", system=game.key, stdout=out)
        if game.key == "demon_city":
            continue
        table = Table.objects.get(name=f"Demo: {game.name}")
        assert table.system == game.key
        assert {c.name for c in table.characters.all()} >= {s.name for s in game.samples}
        assert "Mara's seat: " in out.getvalue() and "Spectator link: " in out.getvalue()


def test_the_demo_typed_by_hand_prints_the_links_make_run_serves(db: None, settings, tmp_path, monkeypatch) -> None:
    """Issue 38, 2: "`python manage.py demo` run by hand prints links on port 8000 while
    `PORT=8731 make run` serves 8731; the README says it reprints the links "at any time"."""
    settings.BASE_DIR = tmp_path
    monkeypatch.delenv("PORT", raising=False)

    def links() -> str:
        out = io.StringIO()
        call_command("demo", stdout=out)
        return out.getvalue()

    assert "Player link: http://127.0.0.1:8000/join/" in links()  # nothing served yet: the default
    (tmp_path / ".served_at").write_text("http://127.0.0.1:8731\n")  # what `make run` writes
    assert "Player link: http://127.0.0.1:8731/join/" in links()
    monkeypatch.setenv("PORT", "8744")  # a PORT in the shell names the server it means
    assert "Player link: http://127.0.0.1:8744/join/" in links()


def test_the_demos_hold_no_test_words(db: None) -> None:
    """Issue 38, 3: "The demos show test words to the GM: "Vulnerable: Zqxv silver", "Zqxv
    rending", ... Demo tables hold content a group would enjoy; test markers live in tests." Every
    system's demo table, as its GM reads it, page and sheets, holds no marker of the tests."""
    from django.contrib.auth import get_user_model

    from games import registry

    for game in registry.SYSTEMS.values():
        call_command("demo", base_url="http://127.0.0.1:8000", system=game.key, stdout=io.StringIO())
    gm = Client()
    gm.force_login(get_user_model().objects.get(username="demo-gm"))
    tables = list(Table.objects.filter(gm__username="demo-gm"))
    assert len(tables) == len(registry.SYSTEMS)
    for table in tables:
        page = gm.get(f"/tables/{table.pk}/").content.decode()
        sheets = " ".join(str(c.sheet) for c in table.characters.all())
        for word in ("zqxv", "sentinel", "marker"):
            assert word not in page.lower() and word not in sheets.lower(), (table.system, word)


def test_the_shadows_demo_starts_with_its_two_decks(db: None) -> None:
    """Issue 38, 3: "The Shadows demo starts without its two decks." Its table has the Minor
    Arcana the rules draw every action from and the Major Arcana of fate (reversed cards
    allowed), so its panel hides its buttons that bring them out."""
    from django.contrib.auth import get_user_model

    call_command("demo", base_url="http://127.0.0.1:8000", system="shadows", stdout=io.StringIO())
    table = Table.objects.get(gm__username="demo-gm", system="shadows")
    decks = {d.name: d for d in table.decks.all()}
    assert set(decks) == {"Minor Arcana", "Major Arcana"}
    assert decks["Major Arcana"].allow_reversed and not decks["Minor Arcana"].allow_reversed
    gm = Client()
    gm.force_login(get_user_model().objects.get(username="demo-gm"))
    page = gm.get(f"/tables/{table.pk}/").content.decode()
    # the panel's deck buttons hide once a deck of each name lies on the table (the panel's CSS)
    assert 'data-deck-name="Minor Arcana"' in page and 'data-deck-name="Major Arcana"' in page
