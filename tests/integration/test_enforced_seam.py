"""What a system declares, the table enforces (issue 21): each finding of the issue, reproduced
through the routes a player or a spectator has, refused or hidden now.

The generic checks run over every registered system live in tests/integration/contract_kit/;
these are the findings as they were reported, one test each."""

from __future__ import annotations

import json
from typing import Any

from django.urls import reverse

from tabletop.models import Event
from tests.integration.test_shadows_table import HTMX, sh  # noqa: F401 (a fixture)
from tests.integration.test_system_seam import dc  # noqa: F401 (a fixture)

SECRET_EFFECT = "Xyzzy the marrow sings"


def export(sh: dict[str, Any], who: str, fmt: str) -> str:
    answer = sh["clients"][who].get(reverse("export", args=[sh["table"].pk, fmt]))
    assert answer.status_code == 200
    return answer.content.decode()


def test_the_gm_s_critical_tables_reach_no_one_else_in_any_export(sh) -> None:
    """Seed 000: "I will not be posting the Critical Tables". ``criticals_set`` had no audience
    and went to everyone: the JSON export put the whole table in every player's hands."""
    table = "\n".join(f"{suit} 1-14 | {SECRET_EFFECT}, {suit}." for suit in ("cups", "pentacles", "swords", "wands"))
    answer = sh["clients"]["gm"].post(reverse("table_command", args=[sh["table"].pk, "set_criticals"]),
                                      {"table": table}, **HTMX)
    assert answer.status_code == 200, answer.content.decode()
    event = Event.objects.get(table=sh["table"], kind="shadows.criticals_set")
    assert event.audience == "gm"
    for who in ("ann", "bob", "watcher"):
        for fmt in ("json", "md"):
            assert SECRET_EFFECT not in export(sh, who, fmt), (who, fmt)
        page = sh["clients"][who].get(reverse("table", args=[sh["table"].pk])).content.decode()
        assert SECRET_EFFECT not in page
    assert SECRET_EFFECT in json.dumps(json.loads(export(sh, "gm", "json")))


# NPC sheets behind the screen: the table's setting, on by default


def card_of(page: str, character_id: int) -> str:
    start = page.index(f'<article id="character-{character_id}"')
    return page[start:page.index("</article>", start)]


def test_an_npc_s_sheet_is_the_gm_s_by_default_on_every_system_and_the_gm_may_show_it(dc) -> None:
    """seeds/README.md: "an NPC's sheet is the GM's unless the GM shows it (a table setting, on by
    default): other seats see its name and what the rules make public". Demon City showed every
    seat the Demon's Hand-to-Hand 6 on its card."""
    from tabletop import services
    from tabletop.seats import GM, SPECTATOR, PageSeat
    from tests.support.frames import logged, seat_frame

    page = reverse("table", args=[dc["table"].pk])
    demon = dc["demon"].pk
    assert dc["table"].npc_sheets_secret
    for who in ("ann", "watcher"):
        card = card_of(dc["clients"][who].get(page).content.decode(), demon)
        assert "Its sheet is the GM's." in card and "Hand-to-Hand" not in card
        dump = dc["clients"][who].get(reverse("export", args=[dc["table"].pk, "json"])).content.decode()
        assert '"hand_to_hand": 6' not in dump
    assert "Hand-to-Hand" in card_of(dc["clients"]["gm"].get(page).content.decode(), demon)
    # a player may not change the setting; the GM may, and every seat's card follows live
    assert dc["clients"]["ann"].post(reverse("npc_sheets", args=[dc["table"].pk]), {"npc_sheets_secret": "0"},
                                     HTTP_HX_REQUEST="true").status_code == 403
    with logged() as events:
        answer = dc["clients"]["gm"].post(reverse("npc_sheets", args=[dc["table"].pk]), {"npc_sheets_secret": "0"},
                                          HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    [shown] = [e for e in events if e.kind == "table.configured"]
    assert shown.summary == "host shows the NPCs' sheets to everyone."
    for seat in (SPECTATOR, PageSeat("player", dc["ann"].pk), GM):
        frame = seat_frame(shown, seat) or ""
        assert "Hand-to-Hand" in card_of(frame, demon), seat
    assert "Hand-to-Hand" in card_of(dc["clients"]["watcher"].get(page).content.decode(), demon)
    assert 'name="npc_sheets_secret" value="1"' in (seat_frame(shown, GM) or "")  # the GM's switch, redrawn
    again = dc["clients"]["gm"].post(reverse("npc_sheets", args=[dc["table"].pk]), {"npc_sheets_secret": "0"},
                                     HTTP_HX_REQUEST="true")
    assert again.status_code == 400 and "already shown" in again.content.decode()
    with logged() as events:
        services.table_npc_sheets(table=dc["table"], actor=dc["gm"], secret=True)
    [hidden] = [e for e in events if e.kind == "table.configured"]
    assert "Hand-to-Hand" not in card_of(seat_frame(hidden, SPECTATOR) or "", demon)
    assert "Hand-to-Hand" in card_of(seat_frame(hidden, GM) or "", demon)
