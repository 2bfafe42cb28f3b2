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
